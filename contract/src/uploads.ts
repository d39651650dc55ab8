import { z } from 'zod';
import {
  ACCESS_URL_MAX_TTL_SECONDS,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SORT,
  EXPIRES_FORMAT,
  FILE_TYPES,
  LINK_PASSWORD_MAX,
  MAX_BATCH_IDS,
  MAX_PAGE_SIZE,
  MAX_SEARCH_LENGTH,
  MAX_VIEWS_LIMIT,
  MIN_PAGE_SIZE,
  NO_VIEW_LIMIT,
  parseExpires,
  SORTS,
  VANITY_MAX,
} from './constants.ts';
import { Boolish, Id, text, WholeNumber } from './text.ts';

export const FileTypeSchema = z.enum(FILE_TYPES);
export const SortSchema = z.enum(SORTS);

export const Tag = z.object({ id: z.string(), name: z.string() }).meta({ id: 'Tag' });
export type Tag = z.infer<typeof Tag>;

export const Upload = z
  .object({
    id: z.string(),
    originalFilename: z.string(),
    mimeType: z.string(),
    size: z.number().int().nonnegative(),
    views: z.number().int().nonnegative(),
    shortCode: z.string(),
    vanityUrl: z.string().nullable(),
    isPublic: z.boolean(),
    createdAt: z.string(),
    tags: z.array(Tag),
    /** The public link: PUBLIC_URL/ + vanity URL or short code (the file itself, always). */
    url: z.string(),
    /**
     * Its preview page: PUBLIC_URL/v/ + vanity URL or short code. Clients hand out this or `url`
     * as the owner's `linkStyle` preference says.
     */
    previewUrl: z.string(),
    /**
     * /thumb/{shortCode}, signed unless anyone may see it (public, no view limit, no password);
     * null when it has no thumbnail.
     */
    thumbnailUrl: z.string().nullable(),
    /** When the link stops working (410), and the upload is deleted soon after; null: never. */
    expiresAt: z.string().nullable(),
    /** How many views the link allows in all; null: no limit. */
    maxViews: z.number().int().nullable(),
    /** How many of maxViews are left; null without a limit. */
    viewsLeft: z.number().int().nullable(),
    /** Whether the link asks visitors for a password. */
    hasPassword: z.boolean(),
  })
  .meta({ id: 'Upload' });
export type Upload = z.infer<typeof Upload>;

export const IdParams = z.object({ id: Id });

export const UploadResponse = z
  .object({
    url: z.string(),
    /** The upload's preview page (`upload.previewUrl`). */
    previewUrl: z.string(),
    message: z.string(),
    upload: Upload,
    /**
     * A signed link that deletes this upload without signing in (for ShareX's history and the
     * scripts): opening it shows a confirmation page, and only its POST deletes.
     */
    deletionUrl: z.string(),
  })
  .meta({ id: 'UploadResponse' });
export type UploadResponse = z.infer<typeof UploadResponse>;

/** When a new upload's link expires: never, a duration from now, or an ISO date-time. */
export const ExpiresInput = text(64)
  .refine((v) => parseExpires(v) !== null, EXPIRES_FORMAT)
  .meta({ examples: ['7d', '12h', 'never', '2026-12-31T23:00:00Z'] });

/** A view limit: at least 1. */
export const MaxViews = z
  .number()
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(MAX_VIEWS_LIMIT, `must be at most ${MAX_VIEWS_LIMIT}`);

/** A view limit as a form field or header: digits, or "none" for no limit. */
export const MaxViewsField = z
  .string()
  .regex(/^(none|[0-9]{1,9})$/, `must be a whole number, or "${NO_VIEW_LIMIT}"`)
  .transform((v) => (v === NO_VIEW_LIMIT ? null : Number(v)))
  .pipe(MaxViews.nullable());

/**
 * A link's password, as typed: no spaces at its ends, which a header (X-Upshot-Password) could
 * not carry.
 */
export const LinkPassword = text(LINK_PASSWORD_MAX)
  .min(1, 'must not be empty')
  .refine((v) => v.trim() === v, 'must not begin or end with a space');

/**
 * The multipart fields of POST /api/upload: fields first, then the file. The link's fields may
 * come as headers instead (LINK_HEADERS); what is not said follows the owner's preferences.
 */
export const UploadFileForm = z.object({
  isPublic: Boolish.optional(),
  expires: ExpiresInput.optional(),
  maxViews: MaxViewsField.optional(),
  password: LinkPassword.optional(),
  file: z.unknown().meta({ type: 'string', format: 'binary' }),
});

export const ListUploadsQuery = z.object({
  search: text(MAX_SEARCH_LENGTH).trim().optional(),
  type: z.union([FileTypeSchema, z.literal('')]).optional(),
  /** Only uploads with this tag (one of the caller's). */
  tag: z.union([Id, z.literal('')]).optional(),
  sort: SortSchema.default(DEFAULT_SORT),
  page: WholeNumber.pipe(z.number().int().min(1).max(1_000_000)).default(1),
  limit: WholeNumber.pipe(z.number().int().min(MIN_PAGE_SIZE).max(MAX_PAGE_SIZE)).default(
    DEFAULT_PAGE_SIZE,
  ),
});
export type ListUploadsQuery = z.input<typeof ListUploadsQuery>;

export const ListUploadsResponse = z
  .object({
    uploads: z.array(Upload),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  })
  .meta({ id: 'UploadList' });
export type ListUploadsResponse = z.infer<typeof ListUploadsResponse>;

/**
 * Any of an upload's settings; null removes the custom URL, the expiry, the view limit or the
 * password. A new view limit counts the views since the link had none.
 */
export const UpdateUploadRequest = z
  .object({
    vanityUrl: text(VANITY_MAX).nullable(),
    isPublic: z.boolean(),
    expiresAt: z.iso.datetime({ offset: true, message: 'must be an ISO date-time' }).nullable(),
    maxViews: MaxViews.nullable(),
    password: LinkPassword.nullable(),
  })
  .partial()
  .strict();
export type UpdateUploadRequest = z.infer<typeof UpdateUploadRequest>;

export const BatchUploadIds = z.object({
  uploadIds: z.array(Id).min(1).max(MAX_BATCH_IDS),
});
export const BatchDeleteResponse = z.object({ deletedCount: z.number().int() });
export type BatchDeleteResponse = z.infer<typeof BatchDeleteResponse>;

export const BatchPrivacyRequest = BatchUploadIds.extend({ isPublic: z.boolean() });
export const BatchPrivacyResponse = z.object({ updatedCount: z.number().int() });
export type BatchPrivacyResponse = z.infer<typeof BatchPrivacyResponse>;

/** How long a signed link works, in seconds (default 10 minutes, at most 7 days). */
export const AccessUrlQuery = z.object({
  ttl: WholeNumber.pipe(
    z
      .number()
      .int()
      .min(1, 'must be at least 1')
      .max(ACCESS_URL_MAX_TTL_SECONDS, `must be at most ${ACCESS_URL_MAX_TTL_SECONDS} (7 days)`),
  ).optional(),
});

export const AccessUrlResponse = z.object({
  url: z.string(),
  /** Its preview page (/v/{slug}), signed alike: the page and the file it shows open by it. */
  previewUrl: z.string(),
  thumbnailUrl: z.string().nullable(),
  expiresAt: z.string(),
});
export type AccessUrlResponse = z.infer<typeof AccessUrlResponse>;

/** A deletion link: the upload's id in the path, its signature in the query or the form. */
export const DeletionParams = z.object({ id: Id });
export const DeletionQuery = z.object({ signature: text(200).optional() });
/** The confirmation page's form repeats the signature; a script's bare POST has it in the query. */
export const DeletionForm = z.object({ signature: text(200).optional() }).strict();

/** The password form of a protected link (POST /{slug}). */
export const UnlockForm = z.object({ password: text(LINK_PASSWORD_MAX) });

// --- Chunked uploads -------------------------------------------------------------------------

export const ChunkInitRequest = z.object({
  filename: text(1024).trim().min(1),
  /** A `type/subtype`; anything else is stored as application/octet-stream. */
  mimeType: text(255).default(''),
  totalSize: z.number().int().positive(),
  totalChunks: z.number().int().positive(),
  isPublic: z.boolean().optional(),
  /** As POST /api/upload's fields: unsaid, the owner's preferences; null: none. */
  expires: ExpiresInput.optional(),
  maxViews: MaxViews.nullable().optional(),
  password: LinkPassword.optional(),
});
export type ChunkInitRequest = z.input<typeof ChunkInitRequest>;
export const ChunkInitResponse = z.object({
  uploadId: z.string(),
  chunkSize: z.number().int(),
  expiresAt: z.string(),
});
export type ChunkInitResponse = z.infer<typeof ChunkInitResponse>;

/** A chunk's index as a form field or query value: a plain decimal integer. */
export const ChunkIndex = z
  .string({ message: 'chunkIndex is required' })
  .regex(/^(0|[1-9][0-9]{0,8})$/, 'chunkIndex must be a whole number')
  .transform(Number);

/** The multipart fields of POST /api/chunked-upload/chunk: the identifiers, then the bytes. */
export const ChunkForm = z.object({
  uploadId: Id,
  chunkIndex: ChunkIndex,
  chunk: z.unknown().meta({ type: 'string', format: 'binary' }),
});

/** The chunk's identifiers may come in the query string instead of the form. */
export const ChunkQuery = z.object({
  uploadId: z.string().max(100).optional(),
  chunkIndex: z.string().max(20).optional(),
});

export const UploadIdParams = z.object({ uploadId: Id });

export const ChunkStatusResponse = z.object({
  uploadId: z.string(),
  filename: z.string(),
  totalSize: z.number().int(),
  totalChunks: z.number().int(),
  chunkSize: z.number().int(),
  receivedChunks: z.array(z.number().int()),
  expiresAt: z.string(),
});
export type ChunkStatusResponse = z.infer<typeof ChunkStatusResponse>;

export const ChunkCompleteRequest = z.object({ uploadId: Id });
export const ChunkCompleteResponse = UploadResponse;
export type ChunkCompleteResponse = UploadResponse;
