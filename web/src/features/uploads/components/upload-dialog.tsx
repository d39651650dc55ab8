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
import { useUploadQueue } from '../hooks/use-upload-queue.ts';
import { DEFAULT_LIMITS, isChunkedUpload, type UploadFileOptions } from '../upload-file.ts';
import { UploadQueueRow } from './upload-queue-row.tsx';

/** How long an all-success batch stays on screen before the dialog closes itself. */
export const AUTO_CLOSE_DELAY_MS = 1000;

type UploadDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Test seam for the chunk retry backoff. */
  uploadOptions?: Pick<UploadFileOptions, 'retryDelaysMs' | 'sleep'>;
};

export function UploadDialog({ open, onOpenChange, uploadOptions }: UploadDialogProps) {
  const queue = useUploadQueue(uploadOptions);
  const { items, pendingCount, isUploading, addFiles, removeItem, retryItem, clear, start } = queue;
  const { data: config } = useServerConfig();
  const maxSimple = config?.maxSimpleUploadBytes ?? DEFAULT_LIMITS.maxSimpleUploadBytes;
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop: addFiles,
    disabled: isUploading,
    multiple: true,
  });

  const close = () => {
    clearTimeout(closeTimer.current);
    clear();
    onOpenChange(false);
  };

  const handleOpenChange = (next: boolean) => {
    if (next) onOpenChange(true);
    else if (!isUploading) close();
  };

  const handleUpload = async () => {
    clearTimeout(closeTimer.current);
    const result = await start();
    if (result.failed === 0 && result.succeeded > 0) {
      closeTimer.current = setTimeout(close, AUTO_CLOSE_DELAY_MS);
    }
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent
        className="sm:max-w-xl"
        showCloseButton={!isUploading}
        onEscapeKeyDown={(event) => isUploading && event.preventDefault()}
        onInteractOutside={(event) => isUploading && event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>Upload Files</DialogTitle>
          <DialogDescription>
            Each file gets its own short link. Files over {formatBytes(maxSimple)} are sent in
            resumable chunks.
          </DialogDescription>
        </DialogHeader>

        <div
          {...getRootProps({
            className: cn(
              'flex cursor-pointer flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed border-input px-6 py-10 text-center transition-colors outline-none hover:border-ring/60 hover:bg-accent/30 focus-visible:ring-[3px] focus-visible:ring-ring/50',
              isDragActive && 'border-brand bg-brand/10',
              isUploading && 'pointer-events-none opacity-50',
            ),
          })}
        >
          <input {...getInputProps({ 'aria-label': 'Choose files to upload' })} />
          <div className="flex size-12 items-center justify-center rounded-full bg-muted">
            <CloudUpload aria-hidden="true" className="size-6 text-muted-foreground" />
          </div>
          <p className="text-sm font-medium">Drop files here or click to browse</p>
          <p className="text-xs text-muted-foreground">Any type, any size</p>
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

        <DialogFooter>
          <Button variant="outline" onClick={close} disabled={isUploading}>
            Cancel
          </Button>
          <Button onClick={() => void handleUpload()} disabled={isUploading || pendingCount === 0}>
            {isUploading ? 'Uploading...' : `Upload ${pendingCount} file(s)`}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
