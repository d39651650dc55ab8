// The Uploads screen's changes, each with the toasts the brief gives it.
import type { LinkStyle, UpdateUploadRequest, Upload } from '@upshot/contract';
import { toast } from 'sonner';
import { getApiErrorMessage } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format.ts';
import { copyText, copyTextWhenReady } from '../../../lib/use-copy.ts';
import { useLinkStyle } from '../../preferences/index.ts';
import {
  useBatchDeleteUploadsMutation,
  useBatchPrivacyMutation,
  useDeleteUploadMutation,
  useSetVanityUrlMutation,
  useUpdateUploadMutation,
} from '../api.ts';
import { signedLink, styledLink } from '../opening-link.ts';

const COPIED = 'URL copied to clipboard';
const COPY_FAILED = 'Failed to copy URL';

/**
 * Copies a link that opens a private file (or its preview page) for anyone who has it, for as
 * long as the server signs it (7 days). It is fetched after the click, so the clipboard write
 * is begun in it.
 */
async function copyPrivateUrl(upload: Upload, style: LinkStyle): Promise<void> {
  const signing = signedLink(upload.id, style);
  try {
    const copied = await copyTextWhenReady(signing.then(({ url }) => url));
    if (!copied) {
      toast.error(COPY_FAILED);
      return;
    }
    const { urlExpiresAt } = await signing;
    toast.success(COPIED, {
      description: `Private link, works until ${formatDate(urlExpiresAt)}`,
    });
  } catch (error) {
    toast.error(COPY_FAILED, { description: getApiErrorMessage(error) });
  }
}

export function useUploadActions() {
  const deleteOne = useDeleteUploadMutation();
  const deleteMany = useBatchDeleteUploadsMutation();
  const setVanity = useSetVanityUrlMutation();
  const update = useUpdateUploadMutation();
  const batchPrivacy = useBatchPrivacyMutation();
  const linkStyle = useLinkStyle();

  return {
    /**
     * The file's link or its preview page's, as Link style says: a public one as it is (with
     * its password or view limit), a private one signed.
     */
    copyUrl: (upload: Upload) =>
      upload.isPublic
        ? copyText(styledLink(upload, linkStyle), { success: COPIED, failure: COPY_FAILED }).then(
            () => undefined,
          )
        : copyPrivateUrl(upload, linkStyle),

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

    async setPrivacy(upload: Upload, isPublic: boolean): Promise<void> {
      try {
        await update.mutateAsync({ id: upload.id, changes: { isPublic } });
        toast.success(isPublic ? 'Upload made public' : 'Upload made private');
      } catch (error) {
        toast.error(getApiErrorMessage(error) ?? 'Failed to change privacy');
      }
    },

    /** Resolves to the server's reason when it refuses, or null when saved. */
    async saveLinkSettings(upload: Upload, changes: UpdateUploadRequest): Promise<string | null> {
      try {
        await update.mutateAsync({ id: upload.id, changes });
        toast.success('Link settings saved');
        return null;
      } catch (error) {
        // Shown once, in the dialog, beside the field it names: no toast as well.
        return getApiErrorMessage(error) ?? 'Failed to save link settings';
      }
    },

    async setPrivacyOf(ids: string[], isPublic: boolean): Promise<boolean> {
      try {
        const { updatedCount } = await batchPrivacy.mutateAsync({ uploadIds: ids, isPublic });
        toast.success(`${updatedCount} upload(s) made ${isPublic ? 'public' : 'private'}`);
        return true;
      } catch {
        toast.error('Failed to change privacy');
        return false;
      }
    },

    isBatchBusy: deleteMany.isPending || batchPrivacy.isPending,
  };
}
