// Calls about one user (their details with the API token, password, token, uploader downloads)
// over the api client, and the TanStack Query hooks Settings and Profile use.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiTokenResponse, UserWithToken } from '@upshot/contract';
import { api, type DownloadedFile } from '../../lib/api-client.ts';

export const usersKeys = {
  all: ['users'] as const,
  detail: (id: string) => ['users', 'detail', id] as const,
};

/** The desktop uploaders Settings offers, each with the file name to fall back on. */
export type UploaderKind = 'sharex' | 'bash' | 'powershell';

export const UPLOADER_EXTENSIONS: Record<UploaderKind, string> = {
  sharex: 'sxcu',
  bash: 'sh',
  powershell: 'ps1',
};

export const usersApi = {
  get: (id: string, signal?: AbortSignal) => api.call('getUser', { params: { id }, signal }),
  changePassword: ({
    id,
    currentPassword,
    newPassword,
  }: {
    id: string;
    currentPassword: string;
    newPassword: string;
  }) => api.call('changePassword', { params: { id }, body: { currentPassword, newPassword } }),
  regenerateApiToken: (id: string) => api.call('regenerateApiToken', { params: { id } }),
  downloadUploader: (kind: UploaderKind, id: string): Promise<DownloadedFile> => {
    switch (kind) {
      case 'sharex':
        return api.download('sharexConfig');
      case 'bash':
        return api.download('userBashScript', { params: { id } });
      case 'powershell':
        return api.download('userPowershellScript', { params: { id } });
    }
  },
};

/** A user with their API token: oneself (Settings, Profile) or, for an admin, anyone. */
export function useUserQuery(id: string) {
  return useQuery({
    queryKey: usersKeys.detail(id),
    queryFn: ({ signal }) => usersApi.get(id, signal),
    // Disk use changes with every upload: read afresh on each visit.
    staleTime: 0,
    enabled: id !== '',
  });
}

export function useChangePasswordMutation() {
  return useMutation({ mutationFn: usersApi.changePassword });
}

export function useRegenerateApiTokenMutation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => usersApi.regenerateApiToken(id),
    onSuccess: ({ apiToken }: ApiTokenResponse) =>
      queryClient.setQueryData<UserWithToken>(usersKeys.detail(id), (user) =>
        user ? { ...user, apiToken } : user,
      ),
  });
}

export function useDownloadUploaderMutation(id: string) {
  return useMutation({ mutationFn: (kind: UploaderKind) => usersApi.downloadUploader(kind, id) });
}
