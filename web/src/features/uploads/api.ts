// Upload calls over the api client, and the TanStack Query hooks the Uploads screen uses.
// Every change invalidates the whole 'uploads' key, so any list on screen reloads.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FileType, Sort, UpdateUploadRequest } from '@upshot/contract';
import { api } from '../../lib/api-client.ts';

export type UploadListParams = {
  search: string;
  type: FileType | '';
  /** A tag's id: only uploads with it; '' for all. */
  tag: string;
  sort: Sort;
  page: number;
  limit: number;
};

export const uploadKeys = {
  all: ['uploads'] as const,
  list: (params: UploadListParams) => ['uploads', 'list', params] as const,
};

export const uploadsApi = {
  list: (params: UploadListParams, signal?: AbortSignal) =>
    api.call('listUploads', {
      query: {
        ...params,
        search: params.search.trim() || undefined,
        type: params.type || undefined,
        tag: params.tag || undefined,
      },
      signal,
    }),
  remove: (id: string) => api.call('deleteUpload', { params: { id } }),
  batchDelete: (uploadIds: string[]) => api.call('batchDeleteUploads', { body: { uploadIds } }),
  setVanityUrl: ({ id, vanityUrl }: { id: string; vanityUrl: string | null }) =>
    api.call('updateUpload', { params: { id }, body: { vanityUrl } }),
  /** Any of an upload's link settings; null removes one. */
  update: ({ id, changes }: { id: string; changes: UpdateUploadRequest }) =>
    api.call('updateUpload', { params: { id }, body: changes }),
  batchPrivacy: ({ uploadIds, isPublic }: { uploadIds: string[]; isPublic: boolean }) =>
    api.call('batchPrivacy', { body: { uploadIds, isPublic } }),
  /** Gives up a chunked session: the server forgets it and drops its chunks. */
  abortChunked: (uploadId: string) => api.call('chunkedAbort', { params: { uploadId } }),
  /** A signed link that opens the file for `ttl` seconds (the server's default: 10 minutes). */
  accessUrl: (id: string, ttl?: number) =>
    api.call('uploadAccessUrl', { params: { id }, query: { ttl } }),
};

/** `enabled: false` holds the request back (the page size is not known yet). */
export function useUploadsQuery(params: UploadListParams, { enabled = true } = {}) {
  return useQuery({
    queryKey: uploadKeys.list(params),
    queryFn: ({ signal }) => uploadsApi.list(params, signal),
    enabled,
    // Keep the cards on screen while the next page or filter loads, instead of flashing 'Loading...'.
    placeholderData: keepPreviousData,
  });
}

/** Marks every uploads query stale, so what is on screen reloads. */
export function useInvalidateUploads() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: uploadKeys.all });
}

export function useDeleteUploadMutation() {
  const invalidate = useInvalidateUploads();
  return useMutation({ mutationFn: uploadsApi.remove, onSettled: () => void invalidate() });
}

export function useBatchDeleteUploadsMutation() {
  const invalidate = useInvalidateUploads();
  return useMutation({ mutationFn: uploadsApi.batchDelete, onSettled: () => void invalidate() });
}

export function useSetVanityUrlMutation() {
  const invalidate = useInvalidateUploads();
  return useMutation({ mutationFn: uploadsApi.setVanityUrl, onSettled: () => void invalidate() });
}

export function useUpdateUploadMutation() {
  const invalidate = useInvalidateUploads();
  return useMutation({ mutationFn: uploadsApi.update, onSettled: () => void invalidate() });
}

export function useBatchPrivacyMutation() {
  const invalidate = useInvalidateUploads();
  return useMutation({ mutationFn: uploadsApi.batchPrivacy, onSettled: () => void invalidate() });
}
