import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuthResponse, LoginRequest, RegisterRequest, User } from '@upshot/contract';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import {
  clearStoredToken,
  getStoredToken,
  isApiError,
  onPasswordChangeRequired,
  onUnauthorized,
  storeToken,
} from '../../lib/api-client.ts';
import { authApi, authKeys } from './api.ts';
import { AuthContext, type AuthContextValue, type SessionEnd } from './auth-context.ts';

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState(getStoredToken);
  const [sessionEnd, setSessionEnd] = useState<SessionEnd>(null);
  const loggingOut = useRef(false);

  const session = useQuery({
    queryKey: authKeys.me,
    queryFn: ({ signal }) => authApi.me(signal),
    enabled: token !== null,
    // Only a 401 ends the session (the api client reports it); anything else waits for Retry.
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

  // A 401 from any call: the api client has dropped the token; forget the user and all their data.
  useEffect(
    () =>
      onUnauthorized(() => {
        if (loggingOut.current) return; // logout() ends the session itself
        // At start a rejected token goes silently (the brief); a session lost later says why.
        const wasSignedIn = queryClient.getQueryData(authKeys.me) !== undefined;
        setToken(null);
        setSessionEnd('expired');
        queryClient.removeQueries();
        if (wasSignedIn) toast.info(SESSION_EXPIRED_MESSAGE);
      }),
    [queryClient],
  );

  // A 403 password_change_required from any call: the gate in front of every protected screen
  // asks for a new password (the user may have been given a temporary one since the session began).
  useEffect(
    () =>
      onPasswordChangeRequired(() =>
        queryClient.setQueryData<User>(authKeys.me, (current) =>
          current && !current.mustChangePassword
            ? { ...current, mustChangePassword: true }
            : current,
        ),
      ),
    [queryClient],
  );

  const checking = token !== null;
  const user = checking && session.isSuccess ? session.data : null;
  const isLoading = checking && (session.isPending || (session.isError && session.isFetching));
  const isUnavailable = checking && session.isError && !session.isFetching;
  const { refetch } = session;
  const retry = useCallback(() => void refetch(), [refetch]);

  const startSession = useCallback(
    (response: AuthResponse) => {
      storeToken(response.token);
      // Seed the cache first so enabling the session query does not refetch the user.
      queryClient.setQueryData(authKeys.me, response.user);
      setToken(response.token);
      setSessionEnd(null);
      return response.user;
    },
    [queryClient],
  );

  const login = useCallback(
    async (credentials: LoginRequest) => startSession(await authApi.login(credentials)),
    [startSession],
  );

  const register = useCallback(
    async (request: RegisterRequest) => {
      const response = await authApi.register(request);
      // Whoever was signed in on this browser before: nothing of theirs may show for the new user.
      queryClient.removeQueries();
      return startSession(response);
    },
    [queryClient, startSession],
  );

  const logout = useCallback(async () => {
    loggingOut.current = true;
    try {
      await authApi.logout();
    } catch (error) {
      // A 401: the session had ended already, which is what was asked for.
      if (!isApiError(error, 401)) throw error;
    } finally {
      loggingOut.current = false;
      clearStoredToken();
      setToken(null);
      setSessionEnd('logout');
      // Nothing cached for this user may leak into the next session.
      queryClient.removeQueries();
    }
  }, [queryClient]);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      isLoading,
      isUnavailable,
      retry,
      isAuthenticated: user !== null,
      isAdmin: user?.role === 'admin',
      sessionEnd,
      login,
      register,
      logout,
    }),
    [user, isLoading, isUnavailable, retry, sessionEnd, login, register, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
