// Auth calls over the api client, and the mutation hooks the screens use to sign in and out.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest, RegisterRequest, User } from '@upshot/contract';
import { api } from '../../lib/api-client.ts';
import { useAuth } from './auth-context.ts';

export const authKeys = {
  me: ['auth', 'me'] as const,
  invite: (code: string) => ['auth', 'invite', code] as const,
};

export const authApi = {
  login: (credentials: LoginRequest) => api.call('login', { body: credentials }),
  logout: () => api.call('logout'),
  me: (signal?: AbortSignal) => api.call('me', { signal }),
  register: (request: RegisterRequest) => api.call('register', { body: request }),
  inviteInfo: (code: string, signal?: AbortSignal) =>
    api.call('inviteInfo', { params: { code }, signal }),
  changePassword: ({ id, currentPassword, newPassword }: PasswordChange & { id: string }) =>
    api.call('changePassword', { params: { id }, body: { currentPassword, newPassword } }),
};

type PasswordChange = { currentPassword: string; newPassword: string };

type MutationCallbacks<TData, TVariables> = {
  onSuccess?: (data: TData, variables: TVariables) => void;
  onError?: (error: unknown, variables: TVariables) => void;
};

// Callbacks go into the hook options, not mutate(): signing in or out re-renders the route
// guards, which may unmount the caller before mutate()-level callbacks would run.
export function useLoginMutation(callbacks: MutationCallbacks<User, LoginRequest> = {}) {
  const { login } = useAuth();
  return useMutation({
    mutationFn: login,
    onSuccess: (user, variables) => callbacks.onSuccess?.(user, variables),
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

export function useLogoutMutation(callbacks: MutationCallbacks<void, void> = {}) {
  const { logout } = useAuth();
  return useMutation({
    mutationFn: logout,
    onSuccess: (data, variables) => callbacks.onSuccess?.(data, variables),
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

export function useRegisterMutation(callbacks: MutationCallbacks<User, RegisterRequest> = {}) {
  const { register } = useAuth();
  return useMutation({
    mutationFn: register,
    onSuccess: (user, variables) => callbacks.onSuccess?.(user, variables),
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}

/** Who an invitation is for; an invalid, used or expired code fails with a 400. */
export function useInviteQuery(code: string) {
  return useQuery({
    queryKey: authKeys.invite(code),
    queryFn: ({ signal }) => authApi.inviteInfo(code, signal),
    enabled: code !== '',
    staleTime: Infinity,
  });
}

/**
 * Changes the signed-in user's password (Settings). The session stays; the server signs out
 * the user's other sessions.
 */
export function useChangePasswordMutation(id: string) {
  return useMutation({
    mutationFn: (change: PasswordChange) => authApi.changePassword({ id, ...change }),
  });
}

/**
 * Replaces a temporary password. The session stays; the user no longer must change it, and
 * whatever was refused meanwhile (403 password_change_required) is fetched again.
 */
export function useChooseOwnPasswordMutation(user: User) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: PasswordChange) => authApi.changePassword({ id: user.id, ...change }),
    onSuccess: () => {
      queryClient.setQueryData<User>(authKeys.me, (current) =>
        current ? { ...current, mustChangePassword: false } : current,
      );
      void queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== authKeys.me[0],
      });
    },
  });
}

/** Reads the signed-in user again (after an admin changed their own role, say). */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: authKeys.me });
}
