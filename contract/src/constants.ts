/**
 * Constants both sides need, importable without zod (`@upshot/contract/constants`), so the web
 * bundle carries no schema library unless a form really needs one.
 */

export const API_BASE = '/api';

/** The app's name and colour: what a link's embed says unless its uploader chose others. */
export const APP_NAME = 'Upshot';
export const APP_THEME_COLOR = '#0a0a0a';

/** Which link a user's clients hand out: the file itself, or its preview page (/v/{slug}). */
export const LINK_STYLES = ['raw', 'preview'] as const;
export type LinkStyle = (typeof LINK_STYLES)[number];
/**
 * The most of a text the preview page holds (512 KiB): the server puts this much in the page,
 * and the page's script fetches as much of a view-limited text; "Show all" loads the rest.
 */
export const PREVIEW_TEXT_BYTES = 512 * 1024;

/** What an embed's title template may name, each as {name}. */
export const EMBED_PLACEHOLDERS = ['filename', 'size', 'date', 'username'] as const;
export type EmbedPlaceholder = (typeof EMBED_PLACEHOLDERS)[number];
export const DEFAULT_EMBED_TITLE = '{filename}';
export const EMBED_TITLE_MAX = 200;
export const EMBED_SITE_NAME_MAX = 100;

/** A title template with its placeholders filled in (an unknown one is left as it is). */
export function fillEmbedTitle(
  template: string,
  values: Readonly<Record<EmbedPlaceholder, string>>,
): string {
  return template.replace(/\{([a-z]+)\}/g, (whole, name: string) =>
    (EMBED_PLACEHOLDERS as readonly string[]).includes(name)
      ? values[name as EmbedPlaceholder]
      : whole,
  );
}

/** Header a desktop client (ShareX, scripts) sends its personal API token in. */
export const API_TOKEN_HEADER = 'x-api-token';

/** localStorage key the web app keeps its session token under. */
export const AUTH_TOKEN_STORAGE_KEY = 'auth_token';

export const MIN_PASSWORD_LENGTH = 8;

/** What the audit log records: every administrator action, by name. */
export const AUDIT_ACTIONS = [
  'user.created',
  'user.updated',
  'user.deleted',
  'user.password_reset',
  'user.invite_sent',
  'user.config_downloaded',
  'user.token_read',
  'user.token_regenerated',
  'access_request.approved',
  'access_request.rejected',
  'access_request.deleted',
  /** An admin opened another user's private file through its link. */
  'upload.read',
  /** An admin made a signed link to another user's file. */
  'upload.link_signed',
  /** An admin changed another user's custom URL. */
  'upload.vanity_changed',
  /** An admin deleted another user's upload (one entry per upload of a batch). */
  'upload.deleted',
  /** An admin changed the privacy, expiry, view limit or password of another user's upload. */
  'upload.link_changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
/** What an audit entry is about (its label names it: a username, a requester, a filename). */
export const AUDIT_TARGET_TYPES = ['user', 'access_request', 'upload'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];
export const USERNAME_MAX = 50;
/** How long an invitation code stays valid. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** 10 GiB: the quota a new user gets unless DEFAULT_QUOTA_BYTES says otherwise. */
export const DEFAULT_QUOTA_BYTES = 10 * 1024 ** 3;

export const ERROR_CODES = [
  'validation_error',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  /** Nothing of the request's body arrived for BODY_IDLE_TIMEOUT_MS (408). */
  'request_timeout',
  'rate_limited',
  /** The user must choose a new password before anything else (a temporary one was set). */
  'password_change_required',
  /** Email is not configured, or the mail server refused or did not answer. */
  'email_not_sent',
  /** An invitation code that is not valid: unknown, used, expired, or its user inactive. */
  'invalid_invite',
  /** GET /api/health/ready: the database or the store did not answer (503). */
  'not_ready',
  /** Asked for something this server does not do (GET /api/oembed?format=xml: 501). */
  'not_implemented',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

// --- Uploads ---------------------------------------------------------------------------------

/** Files up to this size go in one request; larger ones use the chunked protocol. */
export const MAX_SIMPLE_UPLOAD_BYTES = 100 * 1024 * 1024;
/** Size of every chunk but the last (50 MiB). The server says which it uses (init, /api/config). */
export const CHUNK_SIZE = 52_428_800;
/**
 * The least an upload is charged against its owner's quota, however small the file (an empty
 * one too): one 4 KiB block, about what a file costs a disk, so a quota also bounds how many
 * uploads a user can make.
 */
export const MIN_CHARGE_BYTES = 4096;

/** What an upload of `size` bytes is charged against the quota (and given back on delete). */
export function chargedBytes(size: number): number {
  return Math.max(size, MIN_CHARGE_BYTES);
}

/** Default ceiling for one file (MAX_UPLOAD_BYTES on the server). */
export const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 ** 3;
/** A chunk progress bar stops here until the server confirms the whole file. */
export const CHUNK_PROGRESS_CAP = 90;

export function expectedChunkCount(totalSize: number, chunkSize = CHUNK_SIZE): number {
  return Math.max(1, Math.ceil(totalSize / chunkSize));
}

export const SHORT_CODE_LENGTH = 6;
/** Lower-case letters and digits without look-alikes (0/o, 1/i/l), so links survive retyping. */
export const SHORT_CODE_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';

export const VANITY_MIN = 3;
export const VANITY_MAX = 50;
export const VANITY_PATTERN = /^[A-Za-z0-9_-]+$/;
/** A vanity URL given up stays its owner's to take back, and nobody else's, this long. */
export const VANITY_RESERVED_DAYS = 90;

/** Whether a path segment has a short code's shape (a vanity URL may not: it could be one). */
export function looksLikeShortCode(segment: string): boolean {
  if (segment.length !== SHORT_CODE_LENGTH) return false;
  return [...segment.toLowerCase()].every((c) => SHORT_CODE_ALPHABET.includes(c));
}

export const FILE_TYPES = ['images', 'videos', 'documents', 'archives'] as const;
export type FileType = (typeof FILE_TYPES)[number];

export const SORTS = ['newest', 'oldest', 'largest', 'smallest', 'most-viewed'] as const;
export type Sort = (typeof SORTS)[number];
export const DEFAULT_SORT: Sort = 'newest';

export const DEFAULT_PAGE_SIZE = 20;
export const MIN_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
export const MAX_SEARCH_LENGTH = 200;
/** Ids in one batch request. */
export const MAX_BATCH_IDS = 1000;
/** The choices of the theme preference ('system' follows the device; the app is dark by default). */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** A tag's name, trimmed: 1 to this many characters. */
export const TAG_NAME_MAX = 50;
/** Tags one upload can carry at most. */
export const MAX_TAGS_PER_UPLOAD = 50;
/** Tags one user can have at most. */
export const MAX_TAGS_PER_USER = 1000;
/** The answers (409) when a tag would pass those limits; the web app shows them as they are. */
export const UPLOAD_TAG_LIMIT_MESSAGE = `An upload can carry at most ${MAX_TAGS_PER_UPLOAD} tags`;
export const USER_TAG_LIMIT_MESSAGE = `You can have at most ${MAX_TAGS_PER_USER.toLocaleString('en-US')} tags`;
/** Suggestions the tag editor shows at most. */
export const TAG_SUGGESTIONS = 5;
/** Days in the uploads-per-day series of the statistics (today, UTC, and the 29 before). */
export const STATS_DAYS = 30;
/** Rows in the most-viewed and most-active lists of the statistics. */
export const STATS_TOP = 5;
/** Rows in the admin statistics' recent activity. */
export const STATS_RECENT = 10;

const DOCUMENT_TYPES = new Set([
  'application/pdf',
  'application/msword',
  'application/rtf',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/epub+zip',
  'application/json',
  'application/xml',
]);
const ARCHIVE_TYPES = new Set([
  'application/zip',
  'application/x-zip-compressed',
  'application/x-tar',
  'application/gzip',
  'application/x-gzip',
  'application/x-bzip2',
  'application/x-xz',
  'application/x-7z-compressed',
  'application/x-rar-compressed',
  'application/vnd.rar',
  'application/zstd',
]);

/** The one mapping from a mime type to the filter group (null: none of the groups). */
export function fileTypeOf(mimeType: string): FileType | null {
  const mime = mimeType.toLowerCase().split(';')[0]?.trim() ?? '';
  if (mime.startsWith('image/')) return 'images';
  if (mime.startsWith('video/')) return 'videos';
  if (ARCHIVE_TYPES.has(mime)) return 'archives';
  if (
    DOCUMENT_TYPES.has(mime) ||
    mime.startsWith('text/') ||
    mime.startsWith('application/vnd.openxmlformats-officedocument.')
  ) {
    return 'documents';
  }
  return null;
}

// --- Link controls ---------------------------------------------------------------------------

/** The most views a link may be limited to. */
export const MAX_VIEWS_LIMIT = 1_000_000;
/** A link password: 1 to this many characters. */
export const LINK_PASSWORD_MAX = 200;
/** How far ahead a link may expire. */
export const MAX_EXPIRY_MS = 10 * 365 * 24 * 60 * 60 * 1000;
/** A signed link to a private file (GET /api/uploads/{id}/access-url): its default and longest life. */
export const ACCESS_URL_DEFAULT_TTL_SECONDS = 10 * 60;
export const ACCESS_URL_MAX_TTL_SECONDS = 7 * 24 * 60 * 60;

/**
 * Headers a desktop client may send with an upload instead of the multipart fields (ShareX and
 * scripts set headers more easily than fields); `password` also unlocks a link on a GET.
 */
export const LINK_HEADERS = {
  isPublic: 'x-upshot-public',
  expires: 'x-upshot-expires',
  maxViews: 'x-upshot-max-views',
  password: 'x-upshot-password',
} as const;

/** `expires` that means the link never expires (overriding a default expiry). */
export const NEVER_EXPIRES = 'never';
/** `maxViews` (as a field or header) that means no view limit (overriding a default one). */
export const NO_VIEW_LIMIT = 'none';

const DURATION = /^([1-9][0-9]{0,3})([mhdwy])$/;
const UNIT_MS: Record<string, number> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  y: 365 * 86_400_000,
};

/** A duration such as `30m`, `12h`, `7d`, `2w` or `1y`, in milliseconds; null when it is not one. */
export function durationMs(value: string): number | null {
  const match = DURATION.exec(value);
  if (!match) return null;
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

/** An ISO 8601 date-time with a time zone (`2026-12-01T12:00:00Z`, `...+02:00`). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** What an `expires` value says: never, a duration from now, or a moment; null: none of these. */
export function parseExpires(
  value: string,
): { never: true } | { durationMs: number } | { at: Date } | null {
  const v = value;
  if (v.toLowerCase() === NEVER_EXPIRES) return { never: true };
  const ms = durationMs(v.toLowerCase());
  if (ms !== null) return { durationMs: ms };
  if (!ISO_DATE_TIME.test(v)) return null;
  const at = new Date(v);
  return Number.isNaN(at.getTime()) ? null : { at };
}

export const EXPIRES_FORMAT =
  'must be "never", a duration such as 30m, 12h, 7d or 1y, or an ISO date-time';

/** Whether a preference's default expiry is valid: never, or a duration of 10 years at most. */
export function isDefaultExpiry(value: string): boolean {
  if (value === NEVER_EXPIRES) return true;
  const ms = durationMs(value);
  return ms !== null && ms <= MAX_EXPIRY_MS;
}

// --- Paths -----------------------------------------------------------------------------------

/** Client-side routes of the web app; the server answers them with index.html. */
export const SPA_ROUTES = [
  '/',
  '/login',
  '/request-access',
  '/register',
  '/dashboard',
  '/uploads',
  '/settings',
  '/admin',
  '/profile',
] as const;

/** First path segments the server itself answers (besides the SPA routes and the links). */
export const SERVER_PREFIXES = [
  'api',
  'thumb',
  'd', // deletion links
  'v', // preview pages
  'assets',
  'docs',
  'health',
  'metrics',
] as const;

/** Files at the root of the web build (web/public). */
export const ROOT_FILES = ['favicon.ico', 'favicon.svg', 'robots.txt', 'manifest.json'] as const;

/**
 * First path segments a vanity URL may never take, compared case-insensitively: everything the
 * app or the server answers today, and the pages and short prefixes planned next, so a vanity
 * taken today never hides a page shipped tomorrow.
 */
export const RESERVED_PATHS: readonly string[] = [
  ...new Set([
    ...SPA_ROUTES.map((route) => route.split('/')[1] ?? '').filter((s) => s !== ''),
    ...SERVER_PREFIXES,
    ...ROOT_FILES,
    // planned pages and link prefixes
    'tags',
    'stats',
    'users',
    'invite',
    'invites',
    'register',
    'reset',
    'share',
    'u',
    'v',
    'd',
    'p',
    't',
    // words a user might reasonably expect to be the app's own
    'upload',
    'logout',
    'static',
    'files',
    'f',
    's',
  ]),
];

export function isReservedPath(slug: string): boolean {
  return RESERVED_PATHS.includes(slug.toLowerCase());
}

// --- Text ------------------------------------------------------------------------------------

/** C0 and C1 control characters (NUL included): refused in every text field that is stored. */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** Bidirectional controls, which can make `gpj.exe` display as `exe.jpg`. */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** One `type/subtype` as RFC 9110 allows it (tokens): no parameters, lists or line breaks. */
export function isMimeType(value: string): boolean {
  return /^[a-z0-9!#$&^_.+-]{1,127}\/[a-z0-9!#$&^_.+-]{1,127}$/.test(value);
}

/**
 * A filename as it may be shown: no path, control or bidirectional characters, no half
 * characters, 255 UTF-16 units at most.
 */
export function cleanDisplayName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '')
    .replace(new RegExp(CONTROL_CHARACTERS.source, 'g'), '')
    .replace(new RegExp(BIDI_CONTROLS.source, 'g'), '')
    // Half a character (a multipart header may be sent in UTF-16) as the replacement character,
    // the same on both engines (each would store it as a different one).
    .replace(/\p{Cs}/gu, '\ufffd')
    .trim();
  const cut = (base || 'file').slice(0, 255);
  // Not half of a character written as two UTF-16 units (an emoji) at the cut.
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

export { ROUTES, routePath, type Access, type RouteName, type RouteSpec } from './routes.ts';

/**
 * The one normal form of an email address or username for uniqueness and lookup: Unicode NFKC,
 * lower case. The same in code on both engines (SQLite's lower() folds ASCII only).
 */
export function identityKey(value: string): string {
  return value.trim().normalize('NFKC').toLowerCase().normalize('NFKC');
}
