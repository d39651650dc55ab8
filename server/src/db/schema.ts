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
  /** Kept with disk_used, so an unfiltered listing need not count rows. */
  upload_count: Generated<number>;
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

export interface UploadsTable {
  id: string;
  user_id: string;
  original_filename: string;
  mime_type: string;
  file_type: string;
  size: number;
  sha256: string | null;
  views: Generated<number>;
  short_code: string;
  vanity_url: string | null;
  is_public: Bool;
  storage_key: string;
  thumbnail_key: string | null;
  created_at: string;
}

export interface ChunkedUploadsTable {
  id: string;
  user_id: string;
  filename: string;
  mime_type: string;
  total_size: number;
  total_chunks: number;
  chunk_size: number;
  is_public: Bool;
  storage_key: string;
  multipart_id: string;
  status: Generated<'open' | 'completing'>;
  created_at: string;
  expires_at: string;
}

export interface ChunkedUploadPartsTable {
  upload_id: string;
  chunk_index: number;
  size: number;
  received_at: string;
}

export interface Database {
  users: UsersTable;
  uploads: UploadsTable;
  chunked_uploads: ChunkedUploadsTable;
  chunked_upload_parts: ChunkedUploadPartsTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  app_locks: AppLocksTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type UploadRow = Selectable<UploadsTable>;
export type NewUploadRow = Insertable<UploadsTable>;
export type ChunkedUploadRow = Selectable<ChunkedUploadsTable>;
