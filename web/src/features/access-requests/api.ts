// Access requests over the api client: the visitor's form, and the TanStack Query hooks of the
// Admin screen's Access Requests tab. Every decision invalidates the list (and the users, whom
// an approval adds to).
import {
  keepPreviousData,
  useMutation,
  useMutationState,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { AccessRequest, CreateAccessRequest } from '@upshot/contract';
import { api } from '../../lib/api-client.ts';

export type RequestStatusFilter = AccessRequest['status'] | '';

export type AccessRequestListParams = { status: RequestStatusFilter; page: number; limit: number };

export const accessRequestKeys = {
  all: ['access-requests'] as const,
  list: (params: AccessRequestListParams) => ['access-requests', 'list', params] as const,
  decide: ['access-requests', 'decide'] as const,
  remove: ['access-requests', 'remove'] as const,
};

export const accessRequestsApi = {
  submit: (body: CreateAccessRequest) => api.call('requestAccess', { body }),
  list: (params: AccessRequestListParams, signal?: AbortSignal) =>
    api.call('listAccessRequests', {
      query: { ...params, status: params.status || undefined },
      signal,
    }),
  decide: ({ id, status }: { id: string; status: 'approved' | 'rejected' }) =>
    api.call('decideAccessRequest', { params: { id }, body: { status } }),
  remove: (id: string) => api.call('deleteAccessRequest', { params: { id } }),
};

export function useSubmitAccessRequestMutation() {
  return useMutation({ mutationFn: accessRequestsApi.submit });
}

export function useAccessRequestsQuery(params: AccessRequestListParams) {
  return useQuery({
    queryKey: accessRequestKeys.list(params),
    queryFn: ({ signal }) => accessRequestsApi.list(params, signal),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateAfterDecision() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: accessRequestKeys.all });
    // An approval makes an account: the Users tab and the audit log change too.
    void queryClient.invalidateQueries({ queryKey: ['admin'] });
  };
}

export function useDecideAccessRequestMutation() {
  const invalidate = useInvalidateAfterDecision();
  return useMutation({
    mutationKey: accessRequestKeys.decide,
    mutationFn: accessRequestsApi.decide,
    onSettled: invalidate,
  });
}

export function useDeleteAccessRequestMutation() {
  const invalidate = useInvalidateAfterDecision();
  return useMutation({
    mutationKey: accessRequestKeys.remove,
    mutationFn: accessRequestsApi.remove,
    onSettled: invalidate,
  });
}

/** The ids of every request being decided or deleted now, however many are in flight. */
export function useRequestIdsInFlight(): ReadonlySet<string> {
  const decided = useMutationState({
    filters: { mutationKey: accessRequestKeys.decide, status: 'pending' },
    select: (mutation) => (mutation.state.variables as { id: string } | undefined)?.id,
  });
  const removed = useMutationState({
    filters: { mutationKey: accessRequestKeys.remove, status: 'pending' },
    select: (mutation) => mutation.state.variables as string | undefined,
  });
  return new Set([...decided, ...removed].filter((id) => id !== undefined));
}
