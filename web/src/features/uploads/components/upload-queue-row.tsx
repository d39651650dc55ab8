import {
  Check,
  CircleAlert,
  CircleCheck,
  Clock,
  Copy,
  LoaderCircle,
  RotateCcw,
  X,
} from 'lucide-react';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { formatBytes, formatDate } from '../../../lib/format.ts';
import { useCopy } from '../../../lib/use-copy.ts';
import { cn } from '../../../lib/utils.ts';
import type { QueueItem, QueueItemStatus } from '../upload-queue.ts';

const STATUS_LABEL: Record<QueueItemStatus, string> = {
  pending: 'Pending',
  uploading: 'Uploading',
  success: 'Uploaded',
  error: 'Failed',
};

function StatusIcon({ status }: { status: QueueItemStatus }) {
  const label = STATUS_LABEL[status];
  const common = { role: 'img', 'aria-label': label, className: 'size-4 shrink-0' } as const;
  switch (status) {
    case 'pending':
      return <Clock {...common} className={cn(common.className, 'text-muted-foreground')} />;
    case 'uploading':
      return (
        <LoaderCircle {...common} className={cn(common.className, 'animate-spin text-brand')} />
      );
    case 'success':
      return (
        <CircleCheck
          {...common}
          className={cn(common.className, 'text-emerald-600 dark:text-emerald-400')}
        />
      );
    case 'error':
      return <CircleAlert {...common} className={cn(common.className, 'text-destructive')} />;
  }
}

type UploadQueueRowProps = {
  item: QueueItem;
  /** Sent in chunks (over the server's simple-upload limit). */
  chunked: boolean;
  onRemove: () => void;
  /** Absent while a batch runs. */
  onRetry?: () => void;
};

export function UploadQueueRow({ item, chunked, onRemove, onRetry }: UploadQueueRowProps) {
  const { file, status, progress, error } = item;
  return (
    <li
      aria-label={file.name}
      data-status={status}
      className="flex flex-col gap-2 rounded-lg border bg-card/60 px-3 py-2.5"
    >
      <div className="flex items-center gap-3">
        <StatusIcon status={status} />
        <div className="flex min-w-0 flex-1 flex-col">
          <span className="truncate text-sm font-medium" title={file.name}>
            {file.name}
          </span>
          <span className="flex items-center gap-2 text-xs text-muted-foreground">
            {formatBytes(file.size)}
            {chunked && (
              <Badge variant="secondary" className="px-1.5 py-0 text-[10px]">
                Chunked
              </Badge>
            )}
          </span>
        </div>
        {status === 'pending' && (
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            aria-label={`Remove ${file.name}`}
            title="Remove"
            onClick={onRemove}
          >
            <X />
          </Button>
        )}
        {status === 'error' && onRetry && (
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            aria-label={`Retry ${file.name}`}
            title="Retry"
            onClick={onRetry}
          >
            <RotateCcw />
          </Button>
        )}
      </div>
      <Progress
        value={progress}
        aria-label={`${file.name} progress`}
        className="h-1.5"
        indicatorClassName={cn(
          status === 'success' && 'bg-emerald-500',
          status === 'uploading' && 'bg-brand',
        )}
      />
      {error && (
        <p role="alert" className="text-xs text-destructive">
          {error}
        </p>
      )}
      {status === 'success' && item.url && (
        <UploadedLink name={file.name} url={item.url} expiresAt={item.urlExpiresAt} />
      )}
    </li>
  );
}

/**
 * A finished file's link, to copy. Shown as text rather than a link: opening it would spend a
 * view of a link with a view limit. A private file's link is signed, and says until when.
 */
function UploadedLink({ name, url, expiresAt }: { name: string; url: string; expiresAt?: string }) {
  const { copy, copied } = useCopy();
  return (
    <div className="flex min-w-0 items-center gap-2">
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="truncate font-mono text-xs text-muted-foreground" title={url}>
          {url}
        </span>
        {expiresAt && (
          <span className="text-xs text-muted-foreground">
            Private link, works until {formatDate(expiresAt)}
          </span>
        )}
      </span>
      <Button
        variant="ghost"
        size="icon"
        className="size-7"
        aria-label={copied ? `Link of ${name} copied` : `Copy link of ${name}`}
        title="Copy link"
        onClick={() =>
          void copy(url, { success: 'URL copied to clipboard', failure: 'Failed to copy URL' })
        }
      >
        {copied ? (
          <Check aria-hidden="true" className="text-emerald-500" />
        ) : (
          <Copy aria-hidden="true" />
        )}
      </Button>
    </div>
  );
}
