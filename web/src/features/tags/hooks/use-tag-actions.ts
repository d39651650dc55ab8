// The tag changes, each with the toasts the brief gives it. Each resolves to true when it worked.
import type { Tag, Upload } from '@upshot/contract';
import { MAX_TAGS_PER_UPLOAD } from '@upshot/contract/constants';
import { toast } from 'sonner';
import {
  useAddTagToUploadMutation,
  useBatchAddTagMutation,
  useBatchRemoveTagMutation,
  useCreateTagMutation,
  useDeleteTagMutation,
  useRemoveTagFromUploadMutation,
  useRenameTagMutation,
} from '../api.ts';
import { tagFailureMessage } from '../tag-errors.ts';

async function attempt(
  run: () => Promise<unknown>,
  success: string,
  failure: string,
): Promise<boolean> {
  try {
    await run();
    toast.success(success);
    return true;
  } catch (error) {
    toast.error(tagFailureMessage(error, failure));
    return false;
  }
}

/** The card's tag editor: add an existing tag, create one and add it, take one off. */
export function useUploadTagActions() {
  const create = useCreateTagMutation();
  const add = useAddTagToUploadMutation();
  const remove = useRemoveTagFromUploadMutation();

  return {
    addTag: (upload: Upload, tag: Tag) =>
      attempt(
        () => add.mutateAsync({ tagId: tag.id, uploadId: upload.id }),
        'Tag added',
        'Failed to add tag',
      ),

    async createAndAddTag(upload: Upload, name: string): Promise<boolean> {
      let tag: Tag;
      try {
        ({ tag } = await create.mutateAsync(name));
      } catch (error) {
        toast.error(tagFailureMessage(error, 'Failed to create tag'));
        return false;
      }
      return attempt(
        () => add.mutateAsync({ tagId: tag.id, uploadId: upload.id }),
        'Tag created and added',
        'Failed to add tag',
      );
    },

    removeTag: (upload: Upload, tag: Tag) =>
      attempt(
        () => remove.mutateAsync({ tagId: tag.id, uploadId: upload.id }),
        'Tag removed',
        'Failed to remove tag',
      ),

    isBusy: create.isPending || add.isPending || remove.isPending,
  };
}

/** The selection bar's Add Tag and Remove Tag menus. */
export function useBatchTagActions() {
  const batchAdd = useBatchAddTagMutation();
  const batchRemove = useBatchRemoveTagMutation();

  return {
    async addTag(uploadIds: string[], tag: Tag): Promise<boolean> {
      try {
        const { addedCount, skippedCount, fullCount } = await batchAdd.mutateAsync({
          uploadIds,
          tagId: tag.id,
        });
        toast.success(`Tag "${tag.name}" added to ${addedCount} upload(s)`);
        if (skippedCount > 0) toast.info(`${skippedCount} already had this tag`);
        if (fullCount > 0) {
          toast.info(`${fullCount} already carry ${MAX_TAGS_PER_UPLOAD} tags (the most allowed)`);
        }
        return true;
      } catch (error) {
        toast.error(tagFailureMessage(error, 'Failed to add tag'));
        return false;
      }
    },

    async removeTag(uploadIds: string[], tag: Tag): Promise<boolean> {
      try {
        const { removedCount } = await batchRemove.mutateAsync({ uploadIds, tagId: tag.id });
        toast.success(`Tag "${tag.name}" removed from ${removedCount} upload(s)`);
        return true;
      } catch (error) {
        toast.error(tagFailureMessage(error, 'Failed to remove tag'));
        return false;
      }
    },

    isBusy: batchAdd.isPending || batchRemove.isPending,
  };
}

/** The Manage tags dialog: rename and delete. */
export function useManageTagActions() {
  const rename = useRenameTagMutation();
  const remove = useDeleteTagMutation();

  return {
    renameTag: (tag: Tag, name: string) =>
      attempt(
        () => rename.mutateAsync({ tagId: tag.id, name }),
        'Tag renamed',
        'Failed to rename tag',
      ),
    deleteTag: (tag: Tag) =>
      attempt(() => remove.mutateAsync(tag.id), 'Tag deleted', 'Failed to delete tag'),
    isRenaming: rename.isPending,
    isDeleting: remove.isPending,
  };
}
