// Opens an upload in a new tab. A private file needs a short-lived signed link first, because the
// session token lives in localStorage and the browser would not send it with a plain link. So
// does a link with a view limit or a password: the owner's look must not spend a view, nor stop
// at the password form.
import type { Upload } from '@upshot/contract';
import { useCallback } from 'react';
import { toast } from 'sonner';
import { getApiErrorMessage } from '../../../lib/api-client.ts';
import { uploadsApi } from '../api.ts';
import { opensSigned } from '../link-status.ts';

export function useOpenUpload() {
  return useCallback(
    async (upload: Parameters<typeof opensSigned>[0] & Pick<Upload, 'id' | 'url'>) => {
      if (!opensSigned(upload)) {
        window.open(upload.url, '_blank', 'noopener,noreferrer');
        return;
      }
      // Open the tab now, inside the click, or the popup blocker takes it once we have awaited.
      const tab = window.open('about:blank', '_blank');
      try {
        const { url } = await uploadsApi.accessUrl(upload.id);
        if (tab) {
          tab.opener = null;
          tab.location.href = url;
        } else {
          window.open(url, '_blank', 'noopener,noreferrer');
        }
      } catch (error) {
        tab?.close();
        toast.error(getApiErrorMessage(error) ?? 'Failed to open file');
      }
    },
    [],
  );
}
