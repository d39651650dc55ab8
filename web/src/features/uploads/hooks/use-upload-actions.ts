// The Uploads screen's changes, each with the toasts the brief gives it.
import type { Upload } from '@upshot/contract';
import { toast } from 'sonner';
import { getApiErrorMessage } from '../../../lib/api-client.ts';
import { copyText } from '../../../lib/use-copy.ts';
import {
  useBatchDeleteUploadsMutation,
  useDeleteUploadMutation,
  useSetVanityUrlMutation,
} from '../api.ts';

export function useUploadActions() {
  const deleteOne = useDeleteUploadMutation();
  const deleteMany = useBatchDeleteUploadsMutation();
  const setVanity = useSetVanityUrlMutation();

  return {
    copyUrl: (upload: Upload) =>
      copyText(upload.url, { success: 'URL copied to clipboard', failure: 'Failed to copy URL' }),

    async deleteUpload(upload: Upload): Promise<boolean> {
      try {
        await deleteOne.mutateAsync(upload.id);
        toast.success('Upload deleted');
        return true;
      } catch {
        toast.error('Failed to delete upload');
        return false;
      }
    },

    async deleteUploads(ids: string[]): Promise<boolean> {
      try {
        const { deletedCount } = await deleteMany.mutateAsync(ids);
        toast.success(`${deletedCount} upload(s) deleted`);
        return true;
      } catch {
        toast.error('Failed to delete uploads');
        return false;
      }
    },

    /** Resolves to the server's reason when it refuses, or null when saved. */
    async setVanityUrl(upload: Upload, vanityUrl: string | null): Promise<string | null> {
      try {
        await setVanity.mutateAsync({ id: upload.id, vanityUrl });
        toast.success(vanityUrl === null ? 'Vanity URL removed' : 'Vanity URL set');
        return null;
      } catch (error) {
        const message = getApiErrorMessage(error) ?? 'Failed to update vanity URL';
        toast.error(message);
        return message;
      }
    },

    isDeleting: deleteOne.isPending || deleteMany.isPending,
  };
}
