/** Table types as Kysely sees them. Timestamps are ISO-8601 UTC strings; booleans are 0/1. */
import type { AuditAction, AuditTargetType } from '@upshot/contract';
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export type Bool = 0 | 1;

export interface UsersTable {
  id: string;
  /** As entered (display); username_key is what is unique and looked up. */
  username: string;
  /** As entered (display); email_key is what is unique and looked up. */
  email: string;
  /** identityKey(username): NFKC, lower case; unique, the same on both engines. */
  username_key: string;
  /** identityKey(email): NFKC, lower case; unique, the same on both engines. */
  email_key: string;
  role: 'user' | 'admin';
  is_active: Bool;
  /** What the user's uploads are charged against disk_quota (chargedBytes of each size). */
  disk_used: Generated<number>;
  /** Kept with disk_used, so an unfiltered listing need not count rows. */
  upload_count: Generated<number>;
  disk_quota: number;
  /** The sum of the views of the user's uploads, kept with them. */
  view_count: Generated<number>;
  /** The user's tags, kept with them (MAX_TAGS_PER_USER is checked against it). */
  tag_count: Generated<number>;
  /** What the user's open chunked sessions hold of the quota (their reserved, summed). */
  disk_reserved: Generated<number>;
  password_hash: string;
  must_change_password: Generated<Bool>;
  /** AES-256-GCM ciphertext of the personal API token (key derived from SECRET_KEY). */
  api_token_encrypted: string;
  /** HMAC-SHA256 of the API token, to find its owner without decrypting every row. */
  api_token_digest: string;
  created_at: string;
  /** When the user last signed in or used a session (written at most once a minute). */
  last_seen_at: string | null;
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
  /** none: no thumbnail for this type; pending: not made yet; ready: at thumbnail_key; failed. */
  thumbnail_status: ThumbnailStatus;
  /** Set only when thumbnail_status is ready. */
  thumbnail_key: string | null;
  created_at: string;
  /** When the link stops working (410); null: never. */
  expires_at: string | null;
  /** A view limit; null: none. */
  max_views: number | null;
  /** Views spent against max_views (0 without a limit). */
  views_used: Generated<number>;
  /** When the last of those views was claimed. */
  last_view_at: string | null;
  /** argon2id hash of the link's password; null: none. */
  password_hash: string | null;
  /** A picture's or video's size in pixels, as shown; set with its thumbnail, else null. */
  width: Generated<number | null>;
  height: Generated<number | null>;
}

export type ThumbnailStatus = 'none' | 'pending' | 'ready' | 'failed';

/**
 * One namespace for every link path: each upload's short code and vanity URL, lower-cased.
 * The primary key is what keeps a new short code from equalling a vanity URL and back, and a
 * retired row (upload_id null) what keeps a link from being taken over (migration 0015).
 */
export interface SlugsTable {
  slug: string;
  /** null: retired (its upload deleted, or the vanity URL given up). */
  upload_id: string | null;
  kind: 'code' | 'vanity';
  /** Whose link it is or was; null once that user is deleted. */
  owner_id: string | null;
  /** When a vanity URL was given up; null while in use. */
  released_at: string | null;
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
  /** open -> completing (claimed by one request) -> completed (the upload exists). */
  status: Generated<'open' | 'completing' | 'completed'>;
  /** The token of the request that claimed completion, and when it last showed it was alive. */
  claim: string | null;
  claimed_at: string | null;
  /** The upload a completed session made; a repeated complete answers it. */
  upload_id: string | null;
  /** What it holds of its owner's quota: its charge while open, 0 once released or charged. */
  reserved: Generated<number>;
  created_at: string;
  expires_at: string;
  /** The upload's expiry as asked: never, a duration (from completion) or an ISO date-time. */
  link_expires: string | null;
  max_views: number | null;
  password_hash: string | null;
}

export interface ChunkedUploadPartsTable {
  upload_id: string;
  chunk_index: number;
  size: number;
  received_at: string;
  /** writing: a request holds it (writer, alive_at); stored: its bytes are durable. */
  state: Generated<'writing' | 'stored'>;
  writer: string | null;
  alive_at: string | null;
  /** The store's ETag for the stored copy, given back at completion; null while writing. */
  etag: string | null;
}

/**
 * Work done after a response (digests, thumbnails, later email), one row per item until it
 * succeeds: its attempts and last error are kept, so a bad item is retried with backoff and
 * then left alone, never retried forever and never in the way of the others.
 */
export interface TasksTable {
  id: string;
  kind: string;
  subject_id: string;
  attempts: Generated<number>;
  last_error: string | null;
  run_after: string;
  /** A runner's lease: another may take the task only after this time. */
  locked_until: string | null;
  created_at: string;
}

export interface TagsTable {
  id: string;
  user_id: string;
  /** As entered, trimmed (display); name_key is what is unique per user. */
  name: string;
  /** identityKey(name). */
  name_key: string;
  /** Its upload_tags rows, kept with them. */
  upload_count: Generated<number>;
  created_at: string;
}

/** A tag on an upload; tag and upload belong to the same user. */
export interface UploadTagsTable {
  tag_id: string;
  upload_id: string;
  /** The upload's type group (it never changes). */
  file_type: string;
  /** tagSearchText() of the upload, kept when its vanity URL changes. */
  body: string;
}

/** Uploads per type group and user, kept in the transactions that add and delete uploads. */
export interface UserTypeCountsTable {
  user_id: string;
  file_type: string;
  count: number;
}

/** Uploads (that still exist) and their bytes per user and UTC day of creation, kept likewise. */
export interface UserDailyUploadsTable {
  user_id: string;
  /** YYYY-MM-DD */
  day: string;
  count: number;
  bytes: number;
}

/** Preferences a user changed (a user without a row has the defaults). */
export interface UserPreferencesTable {
  user_id: string;
  default_upload_public: Bool;
  email_notifications: Bool;
  theme: 'system' | 'light' | 'dark';
  uploads_per_page: number;
  /** never, or a duration such as 7d. */
  default_expiry: string;
  default_max_views: number | null;
  /** 1: new pictures lose their EXIF, XMP and IPTC (lib/metadata). */
  strip_metadata: Bool;
  /** Which link the user's clients hand out: the file, or its preview page. */
  link_style: 'raw' | 'preview';
  /** How the user's links present themselves in chat apps. */
  embed_title: string;
  embed_site_name: string;
  /** #rrggbb, lower case. */
  embed_color: string;
}

/** A single-use invitation: its code is stored only as a digest. */
export interface InvitesTable {
  id: string;
  user_id: string;
  code_digest: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface AccessRequestsTable {
  id: string;
  email: string;
  /** identityKey(email), to find a pending request for the same address. */
  email_key: string;
  name: string;
  reason: string;
  /** member: the email has an account; kept only to answer a second request like any other. */
  status: 'pending' | 'approved' | 'rejected' | 'member';
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
}

/** One administrator action: who (kept by name too), what, on what, when. */
export interface AuditLogTable {
  id: string;
  actor_id: string | null;
  actor_username: string;
  action: AuditAction;
  target_type: AuditTargetType;
  target_id: string | null;
  target_label: string;
  /** JSON object: what changed (never a password, token or code). */
  details: string;
  created_at: string;
}

/** Who runs a periodic job now, and until when (migration 0009). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** One row: a digest of the secret key this database is used with (db/key-check.ts). */
export interface KeyCheckTable {
  /** Always 1: the table has one row. */
  id: number;
  digest: string;
  recorded_at: string;
}

export interface Database {
  users: UsersTable;
  uploads: UploadsTable;
  slugs: SlugsTable;
  tags: TagsTable;
  upload_tags: UploadTagsTable;
  user_type_counts: UserTypeCountsTable;
  user_daily_uploads: UserDailyUploadsTable;
  user_preferences: UserPreferencesTable;
  invites: InvitesTable;
  access_requests: AccessRequestsTable;
  audit_log: AuditLogTable;
  tasks: TasksTable;
  chunked_uploads: ChunkedUploadsTable;
  chunked_upload_parts: ChunkedUploadPartsTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  app_locks: AppLocksTable;
  job_leases: JobLeasesTable;
  key_check: KeyCheckTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type UploadRow = Selectable<UploadsTable>;
export type NewUploadRow = Insertable<UploadsTable>;
export type ChunkedUploadRow = Selectable<ChunkedUploadsTable>;
export type ChunkedUploadPartRow = Selectable<ChunkedUploadPartsTable>;
export type TaskRow = Selectable<TasksTable>;
export type TagRow = Selectable<TagsTable>;
export type NewTagRow = Insertable<TagsTable>;
export type PreferencesRow = Selectable<UserPreferencesTable>;
export type InviteRow = Selectable<InvitesTable>;
export type AccessRequestRow = Selectable<AccessRequestsTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
