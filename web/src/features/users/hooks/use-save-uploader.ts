// Downloads a user's uploader file (the ShareX config or a script, each holding their API
// token) with the session, and saves it from memory: a plain link could not send the session.
import { useState } from 'react';
import { toast } from 'sonner';
import { saveFile } from '../../../lib/save-file.ts';
import { UPLOADER_EXTENSIONS, useDownloadUploaderMutation, type UploaderKind } from '../api.ts';

type Owner = { id: string; username: string };

const keyOf = (owner: Owner, kind: UploaderKind) => `${owner.id}/${kind}`;

/** `onSettled` runs after each download (the Admin screen reloads its audit log). */
export function useSaveUploader(onSettled?: () => void) {
  const download = useDownloadUploaderMutation(onSettled);
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());

  return {
    /** Whether this file of this user is on its way, to hold its button. */
    isSaving: (owner: Owner, kind: UploaderKind) => pending.has(keyOf(owner, kind)),

    async save(owner: Owner, kind: UploaderKind): Promise<void> {
      const key = keyOf(owner, kind);
      setPending((current) => new Set(current).add(key));
      try {
        const { blob, filename } = await download.mutateAsync({ id: owner.id, kind });
        saveFile(blob, filename ?? `upshot-${owner.username}.${UPLOADER_EXTENSIONS[kind]}`);
      } catch {
        toast.error('Failed to download config');
      } finally {
        setPending((current) => {
          const next = new Set(current);
          next.delete(key);
          return next;
        });
      }
    },
  };
}
