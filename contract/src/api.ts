/**
 * The route table with its schemas: for every endpoint its method, path and access (from
 * routes.ts), its params, query and body, and its responses. The server registers and
 * validates routes from it and serializes responses through it (a field that is not in a
 * response schema never leaves the server); the OpenAPI reference is generated from it; the
 * web client takes its types from it.
 */
import { z } from 'zod';
import {
  AccessRequestSubmitted,
  AuditLogQuery,
  AuditLogResponse,
  CreateAccessRequest,
  DecideAccessRequest,
  DecideAccessRequestResponse,
  InviteInfo,
  InviteParams,
  ListAccessRequestsQuery,
  ListAccessRequestsResponse,
  RegisterRequest,
  SendInviteRequest,
  SendInviteResponse,
} from './access.ts';
import { AuthResponse, LoginRequest } from './auth.ts';
import { ShareXConfig } from './desktop.ts';
import { OEmbedQuery, OEmbedResponse } from './oembed.ts';
import { ROUTES, type RouteSpec } from './routes.ts';
import { PreferencesResponse, UpdatePreferencesRequest } from './preferences.ts';
import { AdminStats, UserStats } from './stats.ts';
import { Health, Readiness, ServerConfig } from './system.ts';
import {
  BatchAddTagResponse,
  BatchRemoveTagResponse,
  BatchTagRequest,
  ListTagsResponse,
  TagIdParams,
  TagRequest,
  TagResponse,
  TagUploadParams,
  TagUploadsQuery,
} from './tags.ts';
import {
  AccessUrlQuery,
  AccessUrlResponse,
  BatchDeleteResponse,
  BatchPrivacyRequest,
  BatchPrivacyResponse,
  BatchUploadIds,
  ChunkCompleteRequest,
  ChunkCompleteResponse,
  ChunkForm,
  ChunkInitRequest,
  ChunkQuery,
  ChunkInitResponse,
  ChunkStatusResponse,
  DeletionForm,
  DeletionParams,
  DeletionQuery,
  IdParams,
  ListUploadsQuery,
  ListUploadsResponse,
  UpdateUploadRequest,
  Upload,
  UploadFileForm,
  UnlockForm,
  UploadIdParams,
  UploadResponse,
} from './uploads.ts';
import {
  ApiTokenResponse,
  ChangePasswordRequest,
  CreateUserRequest,
  CreateUserResponse,
  ListUsersQuery,
  ListUsersResponse,
  AdminUser,
  ResetPasswordResponse,
  UpdateUserRequest,
  User,
  UserIdParams,
  UserWithToken,
} from './users.ts';

export type SuccessStatus = 200 | 201 | 204 | 206;

/** The reference's sections (an entry's `tag`), in order, each with what it covers. */
export const API_TAGS = {
  System: 'What the web app needs to know, this reference, health checks and metrics',
  Auth: 'Signing in and out, the signed-in user, and accepting an invitation',
  'Access requests': 'Asking for an account without one, and administrators deciding',
  Users: 'Accounts, passwords and API tokens; invitations and the audit log for administrators',
  Uploads: "Uploading a file, and the caller's uploads: listing, custom URLs, deleting",
  'Chunked uploads': 'Large files sent in chunks, resumable, then assembled into an upload',
  Tags: "Labels on the caller's uploads",
  Preferences: "The caller's settings, such as the privacy of new uploads",
  Statistics: 'Counts and sizes of uploads, for the caller and for the whole instance',
  'Desktop uploaders': "ShareX configs and upload scripts that carry a user's API token",
  Links:
    'The public side: files, thumbnails and preview pages behind short links, and deletion links',
} as const;
export type ApiTag = keyof typeof API_TAGS;

/** A response described for the reference only: no body, or one that is not JSON. */
export type OtherResponse = {
  description: string;
  /** The content types of its body; none: no body. */
  produces?: string[];
};

export type EndpointSchemas = {
  /** OpenAPI tag: the domain (one of API_TAGS in the table). */
  tag: string;
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** multipart/form-data fields, in the order to send them; the route reads them as they stream. */
  form?: z.ZodObject;
  /** Success answers by status; null: no body. */
  responses: Partial<Record<SuccessStatus, z.ZodType | null>>;
  /** Content types of a body that is not JSON (a file, a thumbnail). */
  produces?: string[];
  /** Request bodies taken besides JSON: an HTML form's. No other route parses a form. */
  consumes?: 'application/x-www-form-urlencoded'[];
  /**
   * Responses besides the success ones and the JSON errors (`ErrorBody`) any route can give: a
   * file's 304, or an error answered as a page rather than JSON. For the reference only.
   */
  otherResponses?: Partial<Record<number, OtherResponse>>;
};

export type Endpoint = RouteSpec & EndpointSchemas;

function endpoint<const R extends RouteSpec, const S extends EndpointSchemas>(
  route: R,
  schemas: S,
) {
  return { ...route, ...schemas };
}

const OpenApiDocument = z.record(z.string(), z.unknown());
const NOT_MODIFIED = { description: 'Not modified (`If-None-Match` or `If-Modified-Since`)' };
const INVALID_DELETION_LINK = {
  description: 'A page saying the link is not valid or its file is already deleted',
  produces: ['text/html'],
};
const LOCKED = {
  description:
    'The link has a password, and the request carries neither its unlock cookie nor a right `X-Upshot-Password`: a page with the password form (no body for HEAD)',
  produces: ['text/html'],
};
const GONE = {
  description: 'The link has expired, or its views are used up: a small page saying which',
  produces: ['text/html'],
};
const TOO_MANY_PASSWORDS = {
  description:
    'Too many wrong passwords for this link or from this address: a page saying when to try again (`Retry-After`)',
  produces: ['text/html'],
};

/** A link's password form and what its POST answers; `back` is where a right one returns. */
const unlockForm = (back: string) =>
  ({
    params: z.object({ slug: z.string() }),
    body: UnlockForm,
    responses: { 200: null } as const,
    produces: ['text/html'],
    consumes: ['application/x-www-form-urlencoded'],
    otherResponses: {
      303: { description: `Unlocked: back to ${back}, now with its cookie` },
      401: LOCKED,
      403: { description: "Posted from another site's page", produces: ['text/html'] },
      404: { description: 'No such link, or a private one', produces: ['text/html'] },
      410: GONE,
      429: TOO_MANY_PASSWORDS,
    },
  }) satisfies Omit<EndpointSchemas, 'tag' | 'summary'>;

export const API = {
  config: endpoint(ROUTES.config, {
    tag: 'System',
    summary: 'What the web app needs to know about this server',
    responses: { 200: ServerConfig },
  }),
  openapi: endpoint(ROUTES.openapi, {
    tag: 'System',
    summary: 'This reference as an OpenAPI 3.1 document',
    responses: { 200: OpenApiDocument },
  }),
  health: endpoint(ROUTES.health, {
    tag: 'System',
    summary: 'Liveness: the process answers',
    description: 'Touches neither the database nor the store, so a slow database never fails it.',
    responses: { 200: Health },
  }),
  healthReady: endpoint(ROUTES.healthReady, {
    tag: 'System',
    summary: 'Readiness: the database and the store answer',
    description:
      'Each part has 3 seconds. A part that fails answers 503 `not_ready`, its message naming the part (`database`, `storage` or both).',
    responses: { 200: Readiness },
  }),
  metrics: endpoint(ROUTES.metrics, {
    tag: 'System',
    summary: 'Prometheus metrics',
    description:
      'Only when METRICS_TOKEN is set (otherwise 404), and only with `Authorization: Bearer <METRICS_TOKEN>` (otherwise 401). Requests by route and status with their duration, bytes uploaded and served, uploads and chunked sessions in flight, job runs and failures, database pool use and process metrics.',
    responses: { 200: null },
    produces: ['text/plain'],
  }),

  login: endpoint(ROUTES.login, {
    tag: 'Auth',
    summary: 'Sign in with email and password',
    description:
      'Answers a session token for `Authorization: Bearer`. Limited to 10 attempts a minute per address and per account.',
    body: LoginRequest,
    responses: { 200: AuthResponse },
  }),
  logout: endpoint(ROUTES.logout, {
    tag: 'Auth',
    summary: 'Sign out: revoke this session token',
    responses: { 204: null },
  }),
  me: endpoint(ROUTES.me, {
    tag: 'Auth',
    summary: 'The signed-in user',
    responses: { 200: User },
  }),

  listUsers: endpoint(ROUTES.listUsers, {
    tag: 'Users',
    summary: 'Every user, searched, filtered and paged (administrators)',
    description:
      '`search` is a case-insensitive part of the username or email; `status` is active or inactive.',
    query: ListUsersQuery,
    responses: { 200: ListUsersResponse },
  }),
  createUser: endpoint(ROUTES.createUser, {
    tag: 'Users',
    summary: 'Create a user with a temporary password (administrators)',
    description:
      'The temporary password is shown once; the user must choose a new one at first sign-in. With `sendInvite`, a single-use invitation (7 days) is made and, when email is configured, sent. Email and username are unique: a duplicate answers 409 naming which.',
    body: CreateUserRequest,
    responses: { 201: CreateUserResponse },
  }),
  updateUser: endpoint(ROUTES.updateUser, {
    tag: 'Users',
    summary: "Change a user's status, role, quota or username (administrators)",
    description:
      'Deactivating signs the user out everywhere and stops their API token at once. Nobody can deactivate or demote the last active administrator (409).',
    params: UserIdParams,
    body: UpdateUserRequest,
    responses: { 200: AdminUser },
  }),
  deleteUser: endpoint(ROUTES.deleteUser, {
    tag: 'Users',
    summary: 'Delete a user with their uploads, tags and sessions (administrators)',
    description: 'Not oneself, and never the last active administrator (409).',
    params: UserIdParams,
    responses: { 204: null },
  }),
  resetPassword: endpoint(ROUTES.resetPassword, {
    tag: 'Users',
    summary: "Reset a user's password to a temporary one (administrators)",
    description:
      'Signs the user out everywhere; they must choose a new password at their next sign-in.',
    params: UserIdParams,
    responses: { 200: ResetPasswordResponse },
  }),
  getUser: endpoint(ROUTES.getUser, {
    tag: 'Users',
    summary: 'A user with their API token (themself or an administrator)',
    params: UserIdParams,
    responses: { 200: UserWithToken },
  }),
  changePassword: endpoint(ROUTES.changePassword, {
    tag: 'Users',
    summary: 'Change your own password',
    description:
      'A wrong current password answers 400. Success signs out every other session of the user and clears a must-change flag; the session that made the change stays signed in.',
    params: UserIdParams,
    body: ChangePasswordRequest,
    responses: { 204: null },
  }),
  regenerateApiToken: endpoint(ROUTES.regenerateApiToken, {
    tag: 'Users',
    summary: 'Replace the personal API token (themself or an administrator)',
    description:
      'The old token stops working at once, and so do uploader configs and scripts made with it.',
    params: UserIdParams,
    responses: { 200: ApiTokenResponse },
  }),

  sharexConfig: endpoint(ROUTES.sharexConfig, {
    tag: 'Desktop uploaders',
    summary: 'Your ShareX custom uploader (.sxcu)',
    description:
      'A download (`Content-Disposition: attachment`) holding your API token. ShareX sends files up to 100 MiB; larger files go through the web app or a script.',
    responses: { 200: ShareXConfig },
    produces: ['application/json'],
  }),
  userSharexConfig: endpoint(ROUTES.userSharexConfig, {
    tag: 'Desktop uploaders',
    summary: "A user's ShareX custom uploader (themself or an administrator)",
    params: UserIdParams,
    responses: { 200: ShareXConfig },
    produces: ['application/json'],
  }),
  userBashScript: endpoint(ROUTES.userBashScript, {
    tag: 'Desktop uploaders',
    summary: "A user's upload script for Linux and macOS (bash and curl)",
    description:
      'Uploads each file given, prints its link and copies it to the clipboard; files over 100 MiB go in 50 MiB chunks, and running it again on an interrupted file resumes it.',
    params: UserIdParams,
    responses: { 200: null },
    produces: ['text/x-shellscript'],
  }),
  userPowershellScript: endpoint(ROUTES.userPowershellScript, {
    tag: 'Desktop uploaders',
    summary: "A user's upload script for Windows PowerShell 5.1 and PowerShell 7",
    params: UserIdParams,
    responses: { 200: null },
    produces: ['text/plain'],
  }),

  register: endpoint(ROUTES.register, {
    tag: 'Auth',
    summary: 'Accept an invitation: set a password and sign in',
    description:
      'The invitation is single-use and valid 7 days; an invalid, used or expired one answers 400 `This invitation is invalid or has expired`. Limited like sign-in.',
    body: RegisterRequest,
    responses: { 200: AuthResponse },
  }),
  inviteInfo: endpoint(ROUTES.inviteInfo, {
    tag: 'Auth',
    summary: 'Who an invitation is for (the registration page)',
    params: InviteParams,
    responses: { 200: InviteInfo },
  }),

  requestAccess: endpoint(ROUTES.requestAccess, {
    tag: 'Access requests',
    summary: 'Ask for an account (no sign-in)',
    description:
      'Limited to 5 an hour per address. A second pending request for one email answers 409. Every accepted request gets the same answer.',
    body: CreateAccessRequest,
    responses: { 201: AccessRequestSubmitted },
  }),
  listAccessRequests: endpoint(ROUTES.listAccessRequests, {
    tag: 'Access requests',
    summary: 'Access requests, newest first (administrators)',
    query: ListAccessRequestsQuery,
    responses: { 200: ListAccessRequestsResponse },
  }),
  decideAccessRequest: endpoint(ROUTES.decideAccessRequest, {
    tag: 'Access requests',
    summary: 'Approve or reject a pending request (administrators)',
    description:
      'Approving creates the user with an invitation and emails the link; rejecting emails a short notice. Only pending requests (else 409).',
    params: IdParams,
    body: DecideAccessRequest,
    responses: { 200: DecideAccessRequestResponse },
  }),
  deleteAccessRequest: endpoint(ROUTES.deleteAccessRequest, {
    tag: 'Access requests',
    summary: 'Delete an access request (administrators)',
    params: IdParams,
    responses: { 204: null },
  }),

  sendInvite: endpoint(ROUTES.sendInvite, {
    tag: 'Users',
    summary: 'Email a user their credentials and invitation (administrators)',
    description:
      'Answers 503 when email is not configured or the mail server refused or did not answer within 10 seconds.',
    body: SendInviteRequest,
    responses: { 200: SendInviteResponse },
  }),
  auditLog: endpoint(ROUTES.auditLog, {
    tag: 'Users',
    summary: "Administrators' actions, newest first (administrators)",
    query: AuditLogQuery,
    responses: { 200: AuditLogResponse },
  }),

  uploadFile: endpoint(ROUTES.uploadFile, {
    tag: 'Uploads',
    summary: 'Upload one file (up to 100 MiB)',
    description:
      'multipart/form-data: the optional fields first, then the file in `file`. `isPublic` (true or false); `expires`: `never`, a duration (`30m`, `12h`, `7d`, `2w`, `1y`) or an ISO date-time; `maxViews`: a whole number from 1, or `none`; `password`. Each may come as a header instead: `X-Upshot-Public`, `X-Upshot-Expires`, `X-Upshot-Max-Views`, `X-Upshot-Password` (a field wins over its header). What is not said follows the preferences (`defaultUploadPrivacy`, `defaultExpiry`, `defaultMaxViews`). A bad value, or an expiry in the past, answers 400 naming the field. Larger files use the chunked upload.',
    form: UploadFileForm,
    responses: { 201: UploadResponse },
  }),
  listUploads: endpoint(ROUTES.listUploads, {
    tag: 'Uploads',
    summary: "The caller's uploads, filtered, searched, sorted and paged",
    query: ListUploadsQuery,
    responses: { 200: ListUploadsResponse },
  }),
  getUpload: endpoint(ROUTES.getUpload, {
    tag: 'Uploads',
    summary: 'One upload',
    params: IdParams,
    responses: { 200: Upload },
  }),
  uploadAccessUrl: endpoint(ROUTES.uploadAccessUrl, {
    tag: 'Uploads',
    summary:
      'Signed links to an upload, its preview page and its thumbnail (the owner or an administrator)',
    description:
      "Valid `ttl` seconds (default 600, at most 604800: 7 days), and never past the link's own expiry. A signed link opens that one file (or thumbnail) until then, private or not, without its password and without spending a view; an expired or deleted upload answers 410 or 404 whatever the signature. `previewUrl` is the file's preview page (`/v/{slug}`) with the same signature: it opens the page, and the page's links to the file carry it on.",
    params: IdParams,
    query: AccessUrlQuery,
    responses: { 200: AccessUrlResponse },
  }),
  updateUpload: endpoint(ROUTES.updateUpload, {
    tag: 'Uploads',
    summary: "Change an upload's link: custom URL, privacy, expiry, view limit, password",
    description:
      'Any of the fields; `null` removes the custom URL, expiry, view limit or password. `expiresAt` is an ISO date-time in the future. A new `maxViews` on a link without one counts from 0; changing it keeps the views used, and one at or below them is refused (400). A new or removed password makes every earlier unlock cookie worthless. Making an upload private stops its public link at once.',
    params: IdParams,
    body: UpdateUploadRequest,
    responses: { 200: Upload },
  }),
  deleteUpload: endpoint(ROUTES.deleteUpload, {
    tag: 'Uploads',
    summary: 'Delete an upload and its bytes',
    params: IdParams,
    responses: { 204: null },
  }),
  batchDeleteUploads: endpoint(ROUTES.batchDeleteUploads, {
    tag: 'Uploads',
    summary: 'Delete up to 1000 uploads',
    body: BatchUploadIds,
    responses: { 200: BatchDeleteResponse },
  }),
  batchPrivacy: endpoint(ROUTES.batchPrivacy, {
    tag: 'Uploads',
    summary: 'Make up to 1000 uploads public or private',
    description:
      "`updatedCount` counts the uploads the caller may change (an administrator: anyone's); other ids are ignored.",
    body: BatchPrivacyRequest,
    responses: { 200: BatchPrivacyResponse },
  }),

  listTags: endpoint(ROUTES.listTags, {
    tag: 'Tags',
    summary: "The caller's tags, by name, each with its number of uploads",
    responses: { 200: ListTagsResponse },
  }),
  createTag: endpoint(ROUTES.createTag, {
    tag: 'Tags',
    summary: 'Create a tag',
    description:
      'The name is trimmed, 1-50 characters. Names are unique per user regardless of case: a second one answers 409 `Tag "name" already exists`. A user has at most 1,000 tags: one more answers 409 `You can have at most 1,000 tags`.',
    body: TagRequest,
    responses: { 201: TagResponse },
  }),
  renameTag: endpoint(ROUTES.renameTag, {
    tag: 'Tags',
    summary: 'Rename a tag',
    params: TagIdParams,
    body: TagRequest,
    responses: { 200: TagResponse },
  }),
  deleteTag: endpoint(ROUTES.deleteTag, {
    tag: 'Tags',
    summary: 'Delete a tag and remove it from every upload',
    params: TagIdParams,
    responses: { 204: null },
  }),
  tagUploads: endpoint(ROUTES.tagUploads, {
    tag: 'Tags',
    summary: 'The uploads with a tag (the upload list, filtered by it)',
    params: TagIdParams,
    query: TagUploadsQuery,
    responses: { 200: ListUploadsResponse },
  }),
  addTagToUpload: endpoint(ROUTES.addTagToUpload, {
    tag: 'Tags',
    summary: 'Tag an upload (answers the upload; adding it again changes nothing)',
    description:
      'An upload carries at most 50 tags: a 51st answers 409 `An upload can carry at most 50 tags`.',
    params: TagUploadParams,
    responses: { 200: Upload },
  }),
  removeTagFromUpload: endpoint(ROUTES.removeTagFromUpload, {
    tag: 'Tags',
    summary: 'Untag an upload (answers the upload; removing it again changes nothing)',
    params: TagUploadParams,
    responses: { 200: Upload },
  }),
  batchAddTag: endpoint(ROUTES.batchAddTag, {
    tag: 'Tags',
    summary: 'Tag up to 1000 uploads',
    description:
      "`skippedCount` counts the uploads that had the tag already, `fullCount` those left without it because they carry 50 tags already; ids that are not the caller's uploads are ignored.",
    body: BatchTagRequest,
    responses: { 200: BatchAddTagResponse },
  }),
  batchRemoveTag: endpoint(ROUTES.batchRemoveTag, {
    tag: 'Tags',
    summary: 'Untag up to 1000 uploads',
    body: BatchTagRequest,
    responses: { 200: BatchRemoveTagResponse },
  }),

  getPreferences: endpoint(ROUTES.getPreferences, {
    tag: 'Preferences',
    summary: "The caller's preferences (defaults until changed)",
    responses: { 200: PreferencesResponse },
  }),
  updatePreferences: endpoint(ROUTES.updatePreferences, {
    tag: 'Preferences',
    summary: 'Change any of the preferences',
    description:
      '`defaultUploadPrivacy` (true: public), `defaultExpiry` (`never` or a duration such as `7d`) and `defaultMaxViews` (a number, or null for none) decide what every upload that does not say gets, from the web app, ShareX and the scripts alike. A value out of range or of the wrong type answers 400 naming the field, and nothing changes.',
    body: UpdatePreferencesRequest,
    responses: { 200: PreferencesResponse },
  }),

  stats: endpoint(ROUTES.stats, {
    tag: 'Statistics',
    summary: "The caller's upload statistics",
    responses: { 200: UserStats },
  }),
  adminStats: endpoint(ROUTES.adminStats, {
    tag: 'Statistics',
    summary: 'Statistics of the whole instance (administrators)',
    responses: { 200: AdminStats },
  }),

  chunkedInit: endpoint(ROUTES.chunkedInit, {
    tag: 'Chunked uploads',
    summary: 'Start a resumable upload of a large file',
    body: ChunkInitRequest,
    responses: { 201: ChunkInitResponse },
  }),
  chunkedChunk: endpoint(ROUTES.chunkedChunk, {
    tag: 'Chunked uploads',
    summary: 'Send one chunk (any order; sending one again replaces it)',
    description:
      'multipart/form-data: `uploadId` and `chunkIndex` first (or in the query string), then the bytes in `chunk`.',
    query: ChunkQuery,
    form: ChunkForm,
    responses: { 204: null },
  }),
  chunkedComplete: endpoint(ROUTES.chunkedComplete, {
    tag: 'Chunked uploads',
    summary: 'Assemble the chunks into the upload',
    description:
      'Safe to repeat: once the upload exists, completing again answers the same upload with 200.',
    body: ChunkCompleteRequest,
    responses: { 201: ChunkCompleteResponse, 200: ChunkCompleteResponse },
  }),
  chunkedStatus: endpoint(ROUTES.chunkedStatus, {
    tag: 'Chunked uploads',
    summary: 'Which chunks the server has stored (to resume)',
    params: UploadIdParams,
    responses: { 200: ChunkStatusResponse },
  }),
  chunkedAbort: endpoint(ROUTES.chunkedAbort, {
    tag: 'Chunked uploads',
    summary: 'Abandon a chunked upload and its bytes',
    description:
      'An open session, or one whose completion failed or stopped (409 while a completion is under way, or once it is complete).',
    params: UploadIdParams,
    responses: { 204: null },
  }),

  deletionPage: endpoint(ROUTES.deletionPage, {
    tag: 'Links',
    summary: "A deletion link's confirmation page",
    description:
      'An HTML page naming the file, with a button that posts the deletion. Opening the link never deletes anything.',
    params: DeletionParams,
    query: DeletionQuery,
    responses: { 200: null },
    produces: ['text/html'],
    otherResponses: { 404: INVALID_DELETION_LINK },
  }),
  deleteByLink: endpoint(ROUTES.deleteByLink, {
    tag: 'Links',
    summary: 'Delete the upload a deletion link names',
    description:
      'The signature (in the query, as the link has it, or as a form field or JSON) opens this one upload only: `curl -X POST "$deletionUrl"` deletes it. A forged signature, another upload\'s, or an upload already deleted answers 404.',
    params: DeletionParams,
    query: DeletionQuery,
    body: DeletionForm,
    responses: { 200: null },
    produces: ['text/html'],
    consumes: ['application/x-www-form-urlencoded'],
    otherResponses: { 404: INVALID_DELETION_LINK },
  }),

  thumbnail: endpoint(ROUTES.thumbnail, {
    tag: 'Links',
    summary: "An upload's thumbnail (WebP, at most 400 px)",
    description:
      "Behind the file's gate: private uploads need `expires` and `signature` from a signed link; a password-protected one its unlock cookie or `X-Upshot-Password`; a view-limited one a signed link (visitors get none); an expired or used-up one answers 410. Fetching it is never a view.",
    params: z.object({ code: z.string() }),
    responses: { 200: null },
    produces: ['image/webp'],
    otherResponses: { 304: NOT_MODIFIED, 401: LOCKED, 410: GONE, 429: TOO_MANY_PASSWORDS },
  }),
  file: endpoint(ROUTES.file, {
    tag: 'Links',
    summary: 'The file behind a short code or custom URL',
    description:
      "`?download` asks for `Content-Disposition: attachment` (the preview page's Download button). A PDF is an attachment but at `?frame` loaded into a frame (`Sec-Fetch-Dest: iframe`), its preview page's: inline with `frame-ancestors 'self'`, `Cache-Control: private` (`?frame` answers vary by `Sec-Fetch-Dest`). Supports Range, If-None-Match and If-Modified-Since. Private uploads answer 404 to everyone but their owner, admins and signed links. An expired link, or one whose views are used up, answers 410. A password-protected link answers 401 with a password form unless the request carries its unlock cookie (set by POSTing the form) or the password in `X-Upshot-Password`. A view is a visitor's download: a GET that carries no grant cookie of an earlier view (a HEAD or a 304 is none; the cookie a view sets lets the same browser seek and reload it for 3 hours). With `maxViews`, exactly that many views succeed, however many arrive at once; the owner, administrators and signed links spend none.",
    params: z.object({ slug: z.string() }),
    responses: { 200: null, 206: null },
    produces: ['application/octet-stream'],
    otherResponses: {
      401: LOCKED,
      410: GONE,
      429: TOO_MANY_PASSWORDS,
      302: {
        description:
          'With `S3_SERVE=presigned`, a GET is redirected to the file in the bucket (a presigned URL valid 5 minutes); a HEAD is answered here',
      },
      304: NOT_MODIFIED,
      404: {
        description:
          "No such link, or a private file the caller may not open: the web app's not-found page",
        produces: ['text/html'],
      },
      416: { description: 'The range is outside the file (`Content-Range: bytes */<size>`)' },
    },
  }),
  unlockFile: endpoint(ROUTES.unlockFile, {
    tag: 'Links',
    summary: "Unlock a password-protected link (its form's POST)",
    description:
      "A right password sets an HttpOnly, SameSite=Lax cookie, on the link's own path and its preview page's, that opens this one upload for 24 hours (until its password changes or it is deleted), then redirects (303) to the link. A wrong one answers the form again (401). A link that does not exist, or is private, answers 404 whatever the password; a form posted from another site's page (`Sec-Fetch-Site: cross-site`) answers 403.",
    ...unlockForm('the link'),
  }),
  oembed: endpoint(ROUTES.oembed, {
    tag: 'Links',
    summary: 'oEmbed 1.0 for a preview page or file link',
    description:
      "`url` is a link of this server, its preview page (`/v/{slug}`) or its file (`/{slug}`). A public upload without a password answers a `photo` (a picture: the file, its width and height within `maxwidth` and `maxheight`), a `video` (the browser's player as `html`, its size and thumbnail) or a `link` (anything else, and a view-limited upload: a consumer's fetch would spend a view), titled and named as its uploader's embed settings say. A link that does not exist, is private, has a password, has expired or is used up answers 404; `format=xml` 501 (JSON only); a `url` that is not a link of this server 400.",
    query: OEmbedQuery,
    responses: { 200: OEmbedResponse },
  }),
  preview: endpoint(ROUTES.preview, {
    tag: 'Links',
    summary: "An upload's preview page",
    description:
      "An HTML page for the upload behind `/{slug}` (custom URL or short code): its name, size and date, a Download button, and the file shown by type (an image, the browser's player for video and audio, the first 512 KiB of text or code with highlighting, Markdown rendered and sanitized, a PDF in the browser's viewer, or a type icon). The raw link's gate applies as it is: private 404, expired or used up 410, a password 401 with its form. Opening the page spends no view; the file it shows, fetched from the raw link, does (the text of a view-limited upload is fetched by the page's script, never put in the page).",
    params: z.object({ slug: z.string() }),
    responses: { 200: null },
    produces: ['text/html'],
    otherResponses: {
      401: LOCKED,
      410: GONE,
      429: TOO_MANY_PASSWORDS,
      404: { description: 'No such link, or a private one', produces: ['text/html'] },
    },
  }),
  unlockPreview: endpoint(ROUTES.unlockPreview, {
    tag: 'Links',
    summary: "Unlock a password-protected preview page (its form's POST)",
    description:
      'As `POST /{slug}`: a right password sets the unlock cookie for the page and the raw link alike, then redirects (303) to the page.',
    ...unlockForm('the page'),
  }),
} as const satisfies Record<string, Endpoint & { tag: ApiTag }>;

export type Api = typeof API;
export type EndpointName = keyof Api;

type Input<S> = S extends z.ZodType ? z.input<S> : never;
type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a call sends: `params`, `query` and `body` where the endpoint has them. */
export type EndpointRequest<E> = (E extends { params: z.ZodType }
  ? { params: Input<E['params']> }
  : { params?: undefined }) &
  (E extends { query: z.ZodType } ? { query?: Input<E['query']> } : { query?: undefined }) &
  (E extends { body: z.ZodType } ? { body: Input<E['body']> } : { body?: undefined });

/** What a successful call answers (undefined for 204). */
export type EndpointResponse<E> = E extends { responses: infer R }
  ? { [K in keyof R]: Output<R[K]> }[keyof R]
  : never;
