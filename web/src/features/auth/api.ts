// Auth calls over the api client, and the mutation hooks the screens use to sign in and out.
import { useMutation } from '@tanstack/react-query';
import type { LoginRequest, User } from '@upshot/contract';
import { api } from '../../lib/api-client.ts';
import { useAuth } from './auth-context.ts';

export const authKeys = {
  me: ['auth', 'me'] as const,
};

export const authApi = {
  login: (credentials: LoginRequest) => api.call('login', { body: credentials }),
  logout: () => api.call('logout'),
  me: (signal?: AbortSignal) => api.call('me', { signal }),
};

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
