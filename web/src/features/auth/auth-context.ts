import type { LoginRequest, User } from '@upshot/contract';
import { createContext, useContext } from 'react';

export type AuthContextValue = {
  /** The signed-in user, or null when signed out (or while the session is still loading). */
  user: User | null;
  /** True only while a stored token is being checked against GET /auth/me. */
  isLoading: boolean;
  isAuthenticated: boolean;
  isAdmin: boolean;
  /** Signs in, stores the token and sets the user; rejects with the server's error body. */
  login: (credentials: LoginRequest) => Promise<User>;
  /** Tells the server, then clears token and user even if the server call failed (and rethrows). */
  logout: () => Promise<void>;
};

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
