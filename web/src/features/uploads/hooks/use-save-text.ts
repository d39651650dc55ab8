// Saves New text's file through the same route as the upload dialog (one request, or chunks for
// a very long text), so quotas, privacy and link options apply alike; then, as after an upload,
// its link (the file's or its preview page's, as Link style says) goes to the clipboard and a
// toast says so.
import type { UploadResponse } from '@upshot/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { beginCopy } from '../../../lib/use-copy.ts';
import { useLinkStyle } from '../../preferences/index.ts';
import { useInvalidateUploads } from '../api.ts';
import { openingLink } from '../opening-link.ts';
import {
  UPLOAD_FAILED,
  UploadFailure,
  uploadFile,
  type UploadLinkOptions,
} from '../upload-file.ts';
import { fetchUploadLimits } from './use-upload-queue.ts';

export const TEXT_SAVED = 'Text uploaded successfully';

export function useSaveText() {
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const invalidateUploads = useInvalidateUploads();
  const linkStyle = useLinkStyle();
  const abortRef = useRef<AbortController | null>(null);

  // Leaving the screen mid-save stops the transfer instead of letting it run unseen.
  useEffect(() => () => abortRef.current?.abort(), []);

  /**
   * Sends `file` with `link`; resolves to null once saved, or to why it was not. Call it inside
   * the submit: the clipboard write is begun then (see beginCopy).
   */
  const save = useCallback(
    async (file: File, link: UploadLinkOptions): Promise<string | null> => {
      const finishCopy = beginCopy();
      const controller = new AbortController();
      abortRef.current = controller;
      setSaving(true);
      try {
        let response: UploadResponse;
        try {
          const limits = await fetchUploadLimits(queryClient);
          response = await uploadFile(file, { ...link, limits, signal: controller.signal });
        } catch (error) {
          void finishCopy(null);
          if (controller.signal.aborted) return null;
          // Shown once, in the dialog (which keeps the text): no toast beside it.
          return error instanceof UploadFailure ? error.message : UPLOAD_FAILED;
        }
        void invalidateUploads();
        const opening = await openingLink(response, linkStyle);
        // Said only when the clipboard took it.
        const copied = await finishCopy(opening?.url ?? null);
        toast.success(TEXT_SAVED, {
          description: copied ? 'Link copied to clipboard' : undefined,
        });
        return null;
      } finally {
        abortRef.current = null;
        if (!controller.signal.aborted) setSaving(false);
      }
    },
    [queryClient, invalidateUploads, linkStyle],
  );

  return { save, saving };
}
