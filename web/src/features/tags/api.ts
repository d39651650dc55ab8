// Tag calls over the api client, and the TanStack Query hooks behind the tag editor, the tag
// filter, the Manage tags dialog and the selection bar's tag menus.
import { useMutation, useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';

export const tagKeys = {
  all: ['tags'] as const,
  list: () => ['tags', 'list'] as const,
};

/**
 * Other features' data a tag change shows in: every upload carries its tags, and the dashboard's
 * statistics (features/stats) are read under 'stats'. Named by their root keys rather than
 * imported, because the uploads feature imports this one (the reverse would be a cycle).
 */
const TAGGED_DATA_KEYS = [['uploads'], ['stats']] as const;

type UploadTag = { tagId: string; uploadId: string };
type BatchTag = { uploadIds: string[]; tagId: string };

export const tagsApi = {
  list: (signal?: AbortSignal) => api.call('listTags', { signal }),
  create: (name: string) => api.call('createTag', { body: { name } }),
  rename: ({ tagId, name }: { tagId: string; name: string }) =>
    api.call('renameTag', { params: { tagId }, body: { name } }),
  remove: (tagId: string) => api.call('deleteTag', { params: { tagId } }),
  addToUpload: (params: UploadTag) => api.call('addTagToUpload', { params }),
  removeFromUpload: (params: UploadTag) => api.call('removeTagFromUpload', { params }),
  batchAdd: (body: BatchTag) => api.call('batchAddTag', { body }),
  batchRemove: (body: BatchTag) => api.call('batchRemoveTag', { body }),
};

/** The user's tags, by name, each with its number of uploads. */
export function useTagsQuery() {
  return useQuery({
    queryKey: tagKeys.list(),
    queryFn: ({ signal }) => tagsApi.list(signal),
  });
}

/** A query whose key names the tag: an upload list filtered by it. */
const mentions = (query: Query, tagId: string) =>
  JSON.stringify(query.queryKey).includes(JSON.stringify(tagId));

/**
 * Marks the tags, the upload lists and the statistics stale, so what is on screen reloads;
 * except what is filtered by a tag just deleted, which the server would answer with a 404 (the
 * filter moves off it instead).
 */
function useInvalidateTagged() {
  const queryClient = useQueryClient();
  return (deletedTagId?: string) =>
    Promise.all(
      [tagKeys.all, ...TAGGED_DATA_KEYS].map((queryKey) =>
        queryClient.invalidateQueries({
          queryKey,
          predicate: deletedTagId ? (query) => !mentions(query, deletedTagId) : undefined,
        }),
      ),
    );
}

function useTagMutation<TVariables, TData>(mutationFn: (variables: TVariables) => Promise<TData>) {
  const invalidate = useInvalidateTagged();
  return useMutation({ mutationFn, onSettled: () => void invalidate() });
}

export const useCreateTagMutation = () => useTagMutation(tagsApi.create);
export const useRenameTagMutation = () => useTagMutation(tagsApi.rename);
export function useDeleteTagMutation() {
  const invalidate = useInvalidateTagged();
  return useMutation({
    mutationFn: tagsApi.remove,
    onSettled: (_data, error, tagId) => void invalidate(error ? undefined : tagId),
  });
}
export const useAddTagToUploadMutation = () => useTagMutation(tagsApi.addToUpload);
export const useRemoveTagFromUploadMutation = () => useTagMutation(tagsApi.removeFromUpload);
export const useBatchAddTagMutation = () => useTagMutation(tagsApi.batchAdd);
export const useBatchRemoveTagMutation = () => useTagMutation(tagsApi.batchRemove);
