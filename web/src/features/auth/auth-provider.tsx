import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest } from '@upshot/contract';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { clearStoredToken, getStoredToken, storeToken } from '../../lib/api-client.ts';
import { authApi, authKeys } from './api.ts';
import { AuthContext, type AuthContextValue } from './auth-context.ts';

/** A stored token that the server no longer accepts is dropped silently: the user just signs in again. */
async function fetchSessionUser() {
  try {
    return await authApi.me();
  } catch (error) {
    clearStoredToken();
    throw error;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState(getStoredToken);

  const session = useQuery({
    queryKey: authKeys.me,
    queryFn: fetchSessionUser,
    enabled: token !== null,
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

  const user = token !== null && session.isSuccess ? session.data : null;
  const isLoading = token !== null && session.isPending;

  const login = useCallback(
    async (credentials: LoginRequest) => {
      const response = await authApi.login(credentials);
      storeToken(response.token);
      // Seed the cache first so enabling the session query does not refetch the user.
      queryClient.setQueryData(authKeys.me, response.user);
      setToken(response.token);
      return response.user;
    },
    [queryClient],
  );

  const logout = useCallback(async () => {
    try {
      await authApi.logout();
    } finally {
      clearStoredToken();
      setToken(null);
      // Nothing cached for this user may leak into the next session.
      queryClient.removeQueries();
    }
  }, [queryClient]);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      isLoading,
      isAuthenticated: user !== null,
      isAdmin: user?.role === 'admin',
      login,
      logout,
    }),
    [user, isLoading, login, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
