// Calls about one user (their details with the API token, the token, uploader downloads) over
// the api client, and the TanStack Query hooks Settings, Profile and the Admin screen use.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiTokenResponse, UserWithToken } from '@upshot/contract';
import { api, type DownloadedFile } from '../../lib/api-client.ts';

export const usersKeys = {
  all: ['users'] as const,
  detail: (id: string) => ['users', 'detail', id] as const,
};

/** The desktop uploaders a user downloads (in Settings, or an administrator for them). */
export type UploaderKind = 'sharex' | 'bash' | 'powershell';

/** The file name's extension to fall back on when the answer names no file. */
export const UPLOADER_EXTENSIONS: Record<UploaderKind, string> = {
  sharex: 'sxcu',
  bash: 'sh',
  powershell: 'ps1',
};

export const usersApi = {
  get: (id: string, signal?: AbortSignal) => api.call('getUser', { params: { id }, signal }),
  regenerateApiToken: (id: string) => api.call('regenerateApiToken', { params: { id } }),
  downloadUploader: ({ id, kind }: { id: string; kind: UploaderKind }): Promise<DownloadedFile> => {
    switch (kind) {
      case 'sharex':
        return api.download('userSharexConfig', { params: { id } });
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

export function useRegenerateApiTokenMutation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => usersApi.regenerateApiToken(id),
    // A read of the user already on its way carries the old token: it must not land after
    // the new one is written.
    onMutate: () => queryClient.cancelQueries({ queryKey: usersKeys.detail(id) }),
    onSuccess: ({ apiToken }: ApiTokenResponse) =>
      queryClient.setQueryData<UserWithToken>(usersKeys.detail(id), (user) =>
        user ? { ...user, apiToken } : user,
      ),
  });
}

export function useDownloadUploaderMutation(onSettled?: () => void) {
  return useMutation({ mutationFn: usersApi.downloadUploader, onSettled });
}
