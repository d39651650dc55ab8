// Runs the upload dialog's queue: pending files one after another, each row's state and progress
// kept current, a toast for each failure and one summing up the batch. After a batch in which
// every file made it, the queue's links are on the clipboard, one a line, and the toast says so;
// each is the file's or its preview page's, as the user's Link style says.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { beginCopy } from '../../../lib/use-copy.ts';
import { useLinkStyle } from '../../preferences/index.ts';
import { serverConfigQuery } from '../../system/index.ts';
import { uploadsApi, useInvalidateUploads } from '../api.ts';
import {
  DEFAULT_LIMITS,
  UPLOAD_FAILED,
  UploadFailure,
  uploadFile,
  type UploadFileOptions,
  type UploadLimits,
  type UploadLinkOptions,
} from '../upload-file.ts';
import { openingLink } from '../opening-link.ts';
import { toQueueItems, type QueueItem } from '../upload-queue.ts';

export type BatchResult = { succeeded: number; failed: number };

type Options = Pick<UploadFileOptions, 'retryDelaysMs' | 'sleep'>;

/** The brief's toast for a file that did not make it. */
/** Read once (and cached): how large a file may go in one request, how to cut the rest. */
export function fetchUploadLimits(queryClient: QueryClient): Promise<UploadLimits> {
  return queryClient.fetchQuery(serverConfigQuery).then(
    ({ chunkSize, maxSimpleUploadBytes }) => ({ chunkSize, maxSimpleUploadBytes }),
    () => DEFAULT_LIMITS,
  );
}

function toastFailure(error: unknown) {
  if (!(error instanceof UploadFailure)) {
    toast.error(UPLOAD_FAILED);
  } else if (error.step === UPLOAD_FAILED) {
    toast.error(error.message); // the server's message, or 'Upload failed'
  } else {
    toast.error(error.step, { description: error.serverMessage });
  }
}

export function useUploadQueue(options: Options = {}) {
  const [items, setItems] = useState<QueueItem[]>([]);
  const [isUploading, setIsUploading] = useState(false);
  const invalidateUploads = useInvalidateUploads();
  const queryClient = useQueryClient();
  const linkStyle = useLinkStyle();
  const abortRef = useRef<AbortController | null>(null);

  // Leaving the screen mid-upload stops the transfer instead of letting it run unseen.
  useEffect(() => () => abortRef.current?.abort(), []);

  const update = useCallback((id: string, patch: Partial<QueueItem>) => {
    setItems((current) => current.map((item) => (item.id === id ? { ...item, ...patch } : item)));
  }, []);

  const addFiles = useCallback((files: readonly File[]) => {
    const added = toQueueItems(files);
    if (added.length > 0) setItems((current) => [...current, ...added]);
  }, []);

  /** Only a file that has not started can be taken out. */
  const removeItem = useCallback((id: string) => {
    setItems((current) => current.filter((item) => item.id !== id || item.status !== 'pending'));
  }, []);

  /** Puts a failed file back in the queue; a chunked one will continue where it stopped. */
  const retryItem = useCallback((id: string) => {
    setItems((current) =>
      current.map((item) =>
        item.id === id && item.status === 'error'
          ? { ...item, status: 'pending', progress: 0, error: undefined }
          : item,
      ),
    );
  }, []);

  const clear = useCallback(() => setItems([]), []);

  /** Sends the pending files, each with `link`. Call it inside the click: see the clipboard. */
  const start = useCallback(
    async (link: UploadLinkOptions = {}): Promise<BatchResult> => {
      const pending = items.filter((item) => item.status === 'pending');
      const result: BatchResult = { succeeded: 0, failed: 0 };
      if (pending.length === 0 || abortRef.current) return result;

      // Begun inside the click, for browsers that let only a gesture write to the clipboard.
      const finishCopy = beginCopy();
      // Every link of the queue, earlier batches' too, in queue order.
      const links = new Map(items.map((item) => [item.id, item.url]));
      let unlinked = 0; // uploaded, but no link that opens could be had
      const controller = new AbortController();
      abortRef.current = controller;
      setIsUploading(true);
      let copied = Promise.resolve(false);
      let urls: string[] = [];
      try {
        const limits = await fetchUploadLimits(queryClient);
        const linkKey = JSON.stringify(link);
        for (const item of pending) {
          if (controller.signal.aborted) break;
          update(item.id, { status: 'uploading', progress: 0, error: undefined });
          let resumeUploadId = item.chunkedUploadId;
          if (resumeUploadId !== undefined && item.chunkedLink !== linkKey) {
            // Opened with other link options, which its upload would keep: give it up (the
            // server would sweep it anyway) and start again with the ones chosen now.
            void uploadsApi.abortChunked(resumeUploadId).catch(() => {});
            resumeUploadId = undefined;
          }
          try {
            const response = await uploadFile(item.file, {
              ...options,
              ...link,
              limits,
              signal: controller.signal,
              resumeUploadId,
              onChunkedSession: (uploadId) =>
                update(item.id, { chunkedUploadId: uploadId, chunkedLink: linkKey }),
              onProgress: (progress) => update(item.id, { progress }),
            });
            result.succeeded++;
            void invalidateUploads();
            const opening = await openingLink(response, linkStyle);
            if (opening) links.set(item.id, opening.url);
            else unlinked++;
            update(item.id, { status: 'success', progress: 100, ...opening });
          } catch (error) {
            if (controller.signal.aborted) break;
            result.failed++;
            const message = error instanceof UploadFailure ? error.message : UPLOAD_FAILED;
            update(item.id, { status: 'error', progress: 0, error: message });
            toastFailure(error);
          }
        }
      } finally {
        abortRef.current = null;
        if (!controller.signal.aborted) setIsUploading(false);
        // Settled on every path: the write begun above must not wait for ever.
        urls = items.flatMap((item) => links.get(item.id) ?? []);
        const allDone =
          !controller.signal.aborted && result.failed === 0 && unlinked === 0 && urls.length > 0;
        copied = finishCopy(allDone ? urls.join('\n') : null);
      }
      if (controller.signal.aborted) return result;

      if (result.succeeded > 0) {
        // Said only when the clipboard took them.
        const description = (await copied)
          ? `${urls.length > 1 ? 'Links' : 'Link'} copied to clipboard`
          : undefined;
        toast.success(`${result.succeeded} file(s) uploaded successfully`, { description });
      }
      if (result.failed > 0) toast.error(`${result.failed} file(s) failed to upload`);
      return result;
    },
    [items, options, update, invalidateUploads, queryClient, linkStyle],
  );

  const pendingCount = items.filter((item) => item.status === 'pending').length;

  return { items, pendingCount, isUploading, addFiles, removeItem, retryItem, clear, start };
}

export type UploadQueue = ReturnType<typeof useUploadQueue>;
