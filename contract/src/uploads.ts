import { z } from 'zod';
import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_SORT,
  FILE_TYPES,
  MAX_BATCH_IDS,
  MAX_PAGE_SIZE,
  MAX_SEARCH_LENGTH,
  MIN_PAGE_SIZE,
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
    /** The public link: PUBLIC_URL/ + vanity URL or short code. */
    url: z.string(),
    /** /thumb/{shortCode}, signed when the upload is private; null when it has no thumbnail. */
    thumbnailUrl: z.string().nullable(),
  })
  .meta({ id: 'Upload' });
export type Upload = z.infer<typeof Upload>;

export const IdParams = z.object({ id: Id });

export const UploadResponse = z
  .object({
    url: z.string(),
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

/** The multipart fields of POST /api/upload: fields first, then the file. */
export const UploadFileForm = z.object({
  isPublic: Boolish.optional(),
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

export const UpdateUploadRequest = z.object({
  vanityUrl: text(VANITY_MAX).nullable(),
});
export type UpdateUploadRequest = z.infer<typeof UpdateUploadRequest>;

export const BatchUploadIds = z.object({
  uploadIds: z.array(Id).min(1).max(MAX_BATCH_IDS),
});
export const BatchDeleteResponse = z.object({ deletedCount: z.number().int() });
export type BatchDeleteResponse = z.infer<typeof BatchDeleteResponse>;

export const AccessUrlResponse = z.object({
  url: z.string(),
  thumbnailUrl: z.string().nullable(),
  expiresAt: z.string(),
});
export type AccessUrlResponse = z.infer<typeof AccessUrlResponse>;

/** A deletion link: the upload's id in the path, its signature in the query or the form. */
export const DeletionParams = z.object({ id: Id });
export const DeletionQuery = z.object({ signature: text(200).optional() });
export const DeletionForm = z.object({ signature: text(200) });

// --- Chunked uploads -------------------------------------------------------------------------

export const ChunkInitRequest = z.object({
  filename: text(1024).trim().min(1),
  /** A `type/subtype`; anything else is stored as application/octet-stream. */
  mimeType: text(255).default(''),
  totalSize: z.number().int().positive(),
  totalChunks: z.number().int().positive(),
  isPublic: z.boolean().optional(),
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
