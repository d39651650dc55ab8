import type { Upload } from '@upshot/contract';
import {
  Calendar,
  Copy,
  Eye,
  Globe,
  Link2,
  Lock,
  LockKeyhole,
  SlidersHorizontal,
  Timer,
  Ticket,
  Trash2,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { formatBytes, formatDate } from '../../../lib/format.ts';
import { cn } from '../../../lib/utils.ts';
import { TagEditor } from '../../tags/index.ts';
import { expiryStatus, opensSigned, viewsStatus, type LinkLimit } from '../link-status.ts';
import { UploadThumbnail } from './upload-thumbnail.tsx';

export type UploadCardProps = {
  upload: Upload;
  selected: boolean;
  /** Some card is ticked: every checkbox shows, not only on hover. */
  selecting?: boolean;
  onSelectedChange: (selected: boolean) => void;
  /** The time now, for "Expires in 3 days". */
  now: number;
  onOpen: (upload: Upload) => void;
  onCopyUrl: (upload: Upload) => void;
  onSetPrivacy: (upload: Upload, isPublic: boolean) => void;
  onLinkSettings: (upload: Upload) => void;
  onSetCustomUrl: (upload: Upload) => void;
  onDelete: (upload: Upload) => void;
};

/**
 * Opens the file in a new tab: a real link for a public file (so middle-click and "copy link"
 * work), a button for a private, view-limited or protected one, which opens through a signed
 * link fetched first (the owner's look spends no view and skips the password). The card has two
 * (picture and name) for the pointer; only the name is a tab stop and seen by screen readers.
 */
function OpenFile({
  upload,
  onOpen,
  className,
  redundant = false,
  children,
}: {
  upload: Upload;
  onOpen: (upload: Upload) => void;
  className: string;
  /** Another control on the card does the same: keep this one out of the tab order. */
  redundant?: boolean;
  children: ReactNode;
}) {
  const a11y = redundant
    ? ({ tabIndex: -1, 'aria-hidden': true } as const)
    : { 'aria-label': `Open ${upload.originalFilename}` };
  if (!opensSigned(upload)) {
    return (
      <a
        href={upload.url}
        target="_blank"
        rel="noopener noreferrer"
        className={className}
        {...a11y}
      >
        {children}
      </a>
    );
  }
  return (
    <button type="button" className={className} onClick={() => onOpen(upload)} {...a11y}>
      {children}
    </button>
  );
}

/** What limits the link: its expiry, its views left, its password. Nothing when none applies. */
function LinkLimits({ upload, now }: { upload: Upload; now: number }) {
  const expiry = expiryStatus(upload.expiresAt, now);
  const views = viewsStatus(upload);
  if (!expiry && !views && !upload.hasPassword) return null;
  const limit = (status: LinkLimit, Icon: typeof Timer, title?: string) => (
    <span
      title={title}
      className={cn('flex items-center gap-1', status.spent && 'font-medium text-destructive')}
    >
      <Icon aria-hidden="true" className="size-3.5 shrink-0" />
      {status.text}
    </span>
  );
  return (
    <div className="flex flex-wrap items-center gap-x-2.5 gap-y-1 text-xs text-muted-foreground">
      {upload.hasPassword && (
        <span className="flex items-center gap-1" title="Visitors must type its password">
          <LockKeyhole aria-hidden="true" className="size-3.5 shrink-0" />
          Password protected
        </span>
      )}
      {expiry && limit(expiry, Timer, upload.expiresAt ? formatDate(upload.expiresAt) : undefined)}
      {views && limit(views, Ticket)}
    </div>
  );
}

export function UploadCard({
  upload,
  selected,
  selecting = false,
  onSelectedChange,
  now,
  onOpen,
  onCopyUrl,
  onSetPrivacy,
  onLinkSettings,
  onSetCustomUrl,
  onDelete,
}: UploadCardProps) {
  const name = upload.originalFilename;
  const iconButton = 'size-8 text-muted-foreground hover:text-foreground';
  return (
    <article
      aria-label={name}
      data-selected={selected || undefined}
      className={cn(
        'group flex w-full min-w-0 flex-col overflow-hidden rounded-xl border bg-card text-card-foreground shadow-sm transition-[border-color,box-shadow] hover:border-ring/50',
        selected && 'border-brand/70 ring-2 ring-brand/40 hover:border-brand/70',
      )}
    >
      <div className="relative aspect-video overflow-hidden border-b bg-muted">
        <OpenFile
          upload={upload}
          onOpen={onOpen}
          redundant
          className="group/thumb relative block size-full cursor-pointer outline-none"
        >
          <UploadThumbnail upload={upload} />
        </OpenFile>
        <div
          className={cn(
            'absolute top-2 left-2 flex rounded-md bg-background/70 p-1 shadow-sm backdrop-blur transition-opacity',
            !selected &&
              !selecting &&
              'sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100',
          )}
        >
          <Checkbox
            aria-label={`Select ${name}`}
            checked={selected}
            onCheckedChange={(checked) => onSelectedChange(checked === true)}
          />
        </div>
        {!upload.isPublic && (
          <Badge
            variant="secondary"
            className="absolute top-2 right-2 bg-background/75 shadow-sm backdrop-blur"
          >
            <Lock aria-hidden="true" />
            Private
          </Badge>
        )}
      </div>

      <div className="flex flex-1 flex-col gap-1.5 px-4 pt-3 pb-2">
        <OpenFile
          upload={upload}
          onOpen={onOpen}
          className="truncate text-left text-sm font-medium outline-none hover:underline focus-visible:underline"
        >
          <span title={name}>{name}</span>
        </OpenFile>
        <div className="flex items-center gap-2 text-xs text-muted-foreground">
          <span>{formatBytes(upload.size)}</span>
          <span aria-hidden="true">·</span>
          <span className="flex items-center gap-1">
            <Eye aria-hidden="true" className="size-3.5" />
            {upload.views === 1 ? '1 view' : `${upload.views} views`}
          </span>
        </div>
        <LinkLimits upload={upload} now={now} />
        {upload.vanityUrl && (
          <div className="flex min-w-0 items-center gap-1 text-xs text-brand">
            <Link2 aria-hidden="true" className="size-3.5 shrink-0" />
            <span className="truncate" title={`/${upload.vanityUrl}`}>
              /{upload.vanityUrl}
            </span>
          </div>
        )}
        <div className="flex items-center gap-1 text-xs text-muted-foreground">
          <Calendar aria-hidden="true" className="size-3.5" />
          <time dateTime={upload.createdAt}>{formatDate(upload.createdAt)}</time>
        </div>
        <div className="mt-1.5">
          <TagEditor upload={upload} />
        </div>
      </div>

      <div className="flex items-center gap-0.5 px-2 pb-2">
        <Button
          variant="ghost"
          size="sm"
          className="flex-1 justify-start text-muted-foreground hover:text-foreground"
          title="Copy URL"
          aria-label={`Copy URL of ${name}`}
          onClick={() => onCopyUrl(upload)}
        >
          <Copy aria-hidden="true" />
          Copy URL
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className={iconButton}
          aria-label={`Make ${name} ${upload.isPublic ? 'private' : 'public'}`}
          title={upload.isPublic ? 'Make private' : 'Make public'}
          onClick={() => onSetPrivacy(upload, !upload.isPublic)}
        >
          {upload.isPublic ? <Lock aria-hidden="true" /> : <Globe aria-hidden="true" />}
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className={iconButton}
          aria-label={`Link settings for ${name}`}
          title="Link settings"
          onClick={() => onLinkSettings(upload)}
        >
          <SlidersHorizontal aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className={iconButton}
          aria-label={`Set custom URL for ${name}`}
          title="Set custom URL"
          onClick={() => onSetCustomUrl(upload)}
        >
          <Link2 aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="size-8 text-muted-foreground hover:bg-destructive/15 hover:text-destructive"
          aria-label={`Delete ${name}`}
          title="Delete"
          onClick={() => onDelete(upload)}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
    </article>
  );
}
