/** Table types as Kysely sees them. Timestamps are ISO-8601 UTC strings; booleans are 0/1. */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export type Bool = 0 | 1;

export interface UsersTable {
  id: string;
  username: string;
  email: string;
  role: 'user' | 'admin';
  is_active: Bool;
  disk_used: Generated<number>;
  disk_quota: number;
  password_hash: string;
  must_change_password: Generated<Bool>;
  /** AES-256-GCM ciphertext of the personal API token (key derived from SECRET_KEY). */
  api_token_encrypted: string;
  /** HMAC-SHA256 of the API token, to find its owner without decrypting every row. */
  api_token_digest: string;
  created_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** SHA-256 of the bearer token; the token itself is never stored. */
  token_digest: string;
  created_at: string;
  expires_at: string;
  last_used_at: string;
  user_agent: string | null;
}

export interface RateLimitsTable {
  key: string;
  window_start: number;
  count: number;
}

/** Named rows that serialize rare cluster-wide work (first-admin bootstrap). */
export interface AppLocksTable {
  name: string;
  touched_at: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  app_locks: AppLocksTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
