import { CloudUpload } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useDropzone } from 'react-dropzone';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { cn } from '../../../lib/utils.ts';
import { useServerConfig } from '../../system/index.ts';
import { useUploadLinkChoices } from '../hooks/use-upload-link-choices.ts';
import type { UploadQueue } from '../hooks/use-upload-queue.ts';
import { TAKES_FILES } from '../open-dialogs.ts';
import { DEFAULT_LIMITS, isChunkedUpload } from '../upload-file.ts';
import { UploadLinkOptions } from './upload-link-options.tsx';
import { UploadQueueRow } from './upload-queue-row.tsx';

/** How long an all-success batch stays on screen before the dialog closes itself. */
export const AUTO_CLOSE_DELAY_MS = 1000;

type UploadDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The screen's queue (useUploadQueue): files pasted or dropped on the screen join it too. */
  queue: UploadQueue;
};

export function UploadDialog({ open, onOpenChange, queue }: UploadDialogProps) {
  const { items, pendingCount, isUploading, addFiles, removeItem, retryItem, clear, start } = queue;
  const link = useUploadLinkChoices();
  const { data: config } = useServerConfig();
  const maxSimple = config?.maxSimpleUploadBytes ?? DEFAULT_LIMITS.maxSimpleUploadBytes;
  const compact = items.length > 0;
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Files that join while a batch is sent or waits to close (pasted, dropped) keep it open.
  const pendingNow = useRef(pendingCount);
  useEffect(() => {
    pendingNow.current = pendingCount;
    if (pendingCount > 0) clearTimeout(closeTimer.current);
  }, [pendingCount]);
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop: addFiles,
    disabled: isUploading,
    multiple: true,
    // The screen takes files dropped anywhere (usePageDrop): not only this zone's.
    preventDropOnDocument: false,
  });

  const close = () => {
    clearTimeout(closeTimer.current);
    clear();
    link.reset();
    onOpenChange(false);
  };

  const handleOpenChange = (next: boolean) => {
    if (next) onOpenChange(true);
    else if (!isUploading) close();
  };

  const handleUpload = async () => {
    clearTimeout(closeTimer.current);
    // Called inside the click: the links go to the clipboard when the batch is done.
    const result = await start(link.options);
    if (result.failed === 0 && result.succeeded > 0) {
      closeTimer.current = setTimeout(() => {
        if (pendingNow.current === 0) close();
      }, AUTO_CLOSE_DELAY_MS);
    }
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent className="sm:max-w-xl" busy={isUploading} {...TAKES_FILES}>
        <DialogHeader>
          <DialogTitle>Upload Files</DialogTitle>
          <DialogDescription>
            Each file gets its own short link. Files over {formatBytes(maxSimple)} are sent in
            resumable chunks.
          </DialogDescription>
        </DialogHeader>

        {/* Smaller once files are queued, so their rows, the link options and the buttons fit. */}
        <div
          {...getRootProps({
            className: cn(
              'flex cursor-pointer items-center justify-center gap-3 rounded-lg border-2 border-dashed border-input transition-colors outline-none hover:border-ring/60 hover:bg-accent/30 focus-visible:ring-[3px] focus-visible:ring-ring/50',
              compact ? 'px-4 py-3 text-left' : 'flex-col px-6 py-10 text-center',
              isDragActive && 'border-brand bg-brand/10',
              isUploading && 'pointer-events-none opacity-50',
            ),
          })}
        >
          <input {...getInputProps({ 'aria-label': 'Choose files to upload' })} />
          <div
            className={cn(
              'flex shrink-0 items-center justify-center rounded-full bg-muted',
              compact ? 'size-9' : 'size-12',
            )}
          >
            <CloudUpload
              aria-hidden="true"
              className={cn('text-muted-foreground', compact ? 'size-4' : 'size-6')}
            />
          </div>
          <div className={cn('grid', compact ? 'gap-0.5' : 'gap-3')}>
            <p className="text-sm font-medium">Drop files here or click to browse</p>
            <p className="text-xs text-muted-foreground">Any type, any size</p>
          </div>
        </div>

        {items.length > 0 && (
          <ul
            aria-label="Files to upload"
            className="-mx-1 flex max-h-72 flex-col gap-2 overflow-y-auto px-1"
          >
            {items.map((item) => (
              <UploadQueueRow
                key={item.id}
                item={item}
                chunked={isChunkedUpload(item.file, maxSimple)}
                onRemove={() => removeItem(item.id)}
                onRetry={isUploading ? undefined : () => retryItem(item.id)}
              />
            ))}
          </ul>
        )}

        <UploadLinkOptions link={link} disabled={isUploading} />

        <DialogFooter>
          <Button variant="outline" onClick={close} disabled={isUploading}>
            Cancel
          </Button>
          <Button
            onClick={() => void handleUpload()}
            disabled={isUploading || pendingCount === 0 || !link.valid}
          >
            {isUploading ? 'Uploading...' : `Upload ${pendingCount} file(s)`}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
