/**
 * Who is calling: the types the credentials hook, the route table and every module share. A
 * leaf: it imports nothing of the server, so sharing it makes no import cycle.
 */
import type { Role } from '@upshot/contract';

/** The signed-in user a request carries: never a hash, a token or a key. */
export type AuthUser = {
  id: string;
  role: Role;
  username: string;
  email: string;
  isActive: boolean;
  /** A temporary password was set: only changing it (and signing out) is allowed. */
  mustChangePassword: boolean;
};

/** Enough of a user to decide what they may see or change. */
export type Viewer = Pick<AuthUser, 'id' | 'role'>;

/** A viewer who acts, named in the audit log. */
export type Actor = Pick<AuthUser, 'id' | 'role' | 'username'>;

/** A request's credentials: the user, and the session when signed in with one (not a token). */
export type Auth = { user: AuthUser; sessionId: string | null };
