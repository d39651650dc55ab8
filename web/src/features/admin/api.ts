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
import { api, type DownloadedFile } from '../../lib/api-client.ts';

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

/** The uploader files an administrator may download for a user. */
export type ConfigKind = 'sharex' | 'bash' | 'powershell';

export const CONFIG_EXTENSIONS: Record<ConfigKind, string> = {
  sharex: 'sxcu',
  bash: 'sh',
  powershell: 'ps1',
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
  downloadConfig: ({ id, kind }: { id: string; kind: ConfigKind }): Promise<DownloadedFile> => {
    switch (kind) {
      case 'sharex':
        return api.download('userSharexConfig', { params: { id } });
      case 'bash':
        return api.download('userBashScript', { params: { id } });
      case 'powershell':
        return api.download('userPowershellScript', { params: { id } });
    }
  },
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

/** A change to users: the list and the log reload once it has settled. */
function useAdminMutation<TData, TVariables>(
  mutationFn: (variables: TVariables) => Promise<TData>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export const useCreateUserMutation = () => useAdminMutation(adminApi.createUser);
export const useUpdateUserMutation = () => useAdminMutation(adminApi.updateUser);
export const useDeleteUserMutation = () => useAdminMutation(adminApi.deleteUser);
export const useResetPasswordMutation = () => useAdminMutation(adminApi.resetPassword);
export const useSendInviteMutation = () => useAdminMutation(adminApi.sendInvite);
export const useDownloadConfigMutation = () => useAdminMutation(adminApi.downloadConfig);
