import type { LoginRequest, RegisterRequest, User } from '@upshot/contract';
import { createContext, useContext } from 'react';

/** How the last session ended: the user logged out, or the server stopped accepting its token. */
export type SessionEnd = 'logout' | 'expired' | null;

export type AuthContextValue = {
  /** The signed-in user, or null when signed out (or while the session is still loading). */
  user: User | null;
  /** True only while a stored token is being checked against GET /api/auth/me. */
  isLoading: boolean;
  /**
   * The stored token could not be checked (no answer, or an error other than 401): the token is
   * kept, and the screens offer `retry` instead of signing the user out.
   */
  isUnavailable: boolean;
  retry: () => void;
  isAuthenticated: boolean;
  isAdmin: boolean;
  sessionEnd: SessionEnd;
  /** Signs in, stores the token and sets the user; rejects with the server's ApiError. */
  login: (credentials: LoginRequest) => Promise<User>;
  /** Accepts an invitation: sets the password, stores the token and sets the user, like login. */
  register: (request: RegisterRequest) => Promise<User>;
  /** Tells the server, then clears token and user even if the server call failed (and rethrows). */
  logout: () => Promise<void>;
};

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
