// User administration and the audit log over the api client, and the TanStack Query hooks of the
// Admin screen. Every key starts with 'admin', so one invalidation reloads the users and the log
// (an action is written to the log as it happens).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateUserRequest,
  Role,
  SendInviteRequest,
  UpdateUserRequest,
} from '@upshot/contract';
import { api } from '../../lib/api-client.ts';

export type UserStatusFilter = 'active' | 'inactive' | '';

export type UserListParams = {
  search: string;
  role: Role | '';
  status: UserStatusFilter;
  page: number;
  limit: number;
};

export type AuditLogParams = { page: number; limit: number };

export const adminKeys = {
  all: ['admin'] as const,
  users: (params: UserListParams) => ['admin', 'users', params] as const,
  audit: (params: AuditLogParams) => ['admin', 'audit', params] as const,
};

export const adminApi = {
  listUsers: (params: UserListParams, signal?: AbortSignal) =>
    api.call('listUsers', {
      query: {
        ...params,
        search: params.search.trim() || undefined,
        role: params.role || undefined,
        status: params.status || undefined,
      },
      signal,
    }),
  createUser: (body: CreateUserRequest) => api.call('createUser', { body }),
  updateUser: ({ id, changes }: { id: string; changes: UpdateUserRequest }) =>
    api.call('updateUser', { params: { id }, body: changes }),
  deleteUser: (id: string) => api.call('deleteUser', { params: { id } }),
  resetPassword: (id: string) => api.call('resetPassword', { params: { id } }),
  sendInvite: (body: SendInviteRequest) => api.call('sendInvite', { body }),
  auditLog: (params: AuditLogParams, signal?: AbortSignal) =>
    api.call('auditLog', { query: params, signal }),
};

export function useUsersQuery(params: UserListParams) {
  return useQuery({
    queryKey: adminKeys.users(params),
    queryFn: ({ signal }) => adminApi.listUsers(params, signal),
    // Keep the rows on screen while the next filter or page loads.
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useAuditLogQuery(params: AuditLogParams) {
  return useQuery({
    queryKey: adminKeys.audit(params),
    queryFn: ({ signal }) => adminApi.auditLog(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** Reloads the users and the log (after any administrator action, which the log records). */
export function useInvalidateAdmin() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
}

/** A change to users: the list and the log reload once it has settled. */
function useAdminMutation<TData, TVariables>(
  mutationFn: (variables: TVariables) => Promise<TData>,
) {
  const invalidate = useInvalidateAdmin();
  return useMutation({ mutationFn, onSettled: invalidate });
}

export const useCreateUserMutation = () => useAdminMutation(adminApi.createUser);
export const useUpdateUserMutation = () => useAdminMutation(adminApi.updateUser);
export const useDeleteUserMutation = () => useAdminMutation(adminApi.deleteUser);
export const useResetPasswordMutation = () => useAdminMutation(adminApi.resetPassword);
export const useSendInviteMutation = () => useAdminMutation(adminApi.sendInvite);
