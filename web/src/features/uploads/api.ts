// Upload calls over the api client, and the TanStack Query hooks the Uploads screen uses.
// Every change invalidates the whole 'uploads' key, so any list on screen reloads.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccessUrlResponse,
  BatchDeleteResponse,
  FileType,
  ListUploadsResponse,
  Sort,
  Upload,
} from '@upshot/contract';
import { apiClient } from '../../lib/api-client.ts';

export type UploadListParams = {
  search: string;
  type: FileType | '';
  sort: Sort;
  page: number;
  limit: number;
};

export const uploadKeys = {
  all: ['uploads'] as const,
  list: (params: UploadListParams) => ['uploads', 'list', params] as const,
};

function listQueryString(params: UploadListParams): string {
  const query = new URLSearchParams();
  const search = params.search.trim();
  if (search) query.set('search', search);
  if (params.type) query.set('type', params.type);
  query.set('sort', params.sort);
  query.set('page', String(params.page));
  query.set('limit', String(params.limit));
  return query.toString();
}

const byId = (id: string) => `/uploads/${encodeURIComponent(id)}`;

export const uploadsApi = {
  list: (params: UploadListParams) =>
    apiClient.get<ListUploadsResponse>(`/uploads?${listQueryString(params)}`),
  remove: (id: string) => apiClient.delete<void>(byId(id)),
  batchDelete: (uploadIds: string[]) =>
    apiClient.post<BatchDeleteResponse>('/uploads/batch/delete', { uploadIds }),
  setVanityUrl: ({ id, vanityUrl }: { id: string; vanityUrl: string | null }) =>
    apiClient.patch<Upload>(byId(id), { vanityUrl }),
  accessUrl: (id: string) => apiClient.get<AccessUrlResponse>(`${byId(id)}/access-url`),
};

export function useUploadsQuery(params: UploadListParams) {
  return useQuery({
    queryKey: uploadKeys.list(params),
    queryFn: () => uploadsApi.list(params),
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
