import { z } from 'zod';

/** Files up to this size go in one request; larger ones use the chunked protocol. */
export const MAX_SIMPLE_UPLOAD_BYTES = 100 * 1024 * 1024;
/** Size of every chunk but the last (50 MiB). */
export const CHUNK_SIZE = 52_428_800;
/** Default ceiling for one file (MAX_UPLOAD_BYTES on the server). */
export const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 ** 3;
/** A chunk progress bar stops here until the server confirms the whole file. */
export const CHUNK_PROGRESS_CAP = 90;

export const SHORT_CODE_LENGTH = 6;
/** Lower-case letters and digits without look-alikes (0/o, 1/i/l), so links survive retyping. */
export const SHORT_CODE_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';

export const VANITY_MIN = 3;
export const VANITY_MAX = 50;
export const VANITY_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * First path segments a vanity URL may not take, because the app or the server answers them.
 * Compared case-insensitively.
 */
export const RESERVED_PATHS = [
  'api',
  'thumb',
  'assets',
  'login',
  'register',
  'request-access',
  'dashboard',
  'uploads',
  'upload',
  'settings',
  'admin',
  'profile',
  'logout',
  'favicon.ico',
  'favicon.svg',
  'robots.txt',
  'manifest.json',
  'health',
  'static',
  'files',
  'f',
  's',
] as const;

export function isReservedPath(slug: string): boolean {
  const lower = slug.toLowerCase();
  return (RESERVED_PATHS as readonly string[]).includes(lower);
}

export const FILE_TYPES = ['images', 'videos', 'documents', 'archives'] as const;
export const FileType = z.enum(FILE_TYPES);
export type FileType = z.infer<typeof FileType>;

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

export const SORTS = ['newest', 'oldest', 'largest', 'smallest', 'most-viewed'] as const;
export const Sort = z.enum(SORTS);
export type Sort = z.infer<typeof Sort>;

export const DEFAULT_PAGE_SIZE = 20;
export const MIN_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export const Tag = z.object({ id: z.string(), name: z.string() });
export type Tag = z.infer<typeof Tag>;

export const Upload = z.object({
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
  /** /thumb/{shortCode}; for a private upload, the owner asks for a signed one. */
  thumbnailUrl: z.string(),
});
export type Upload = z.infer<typeof Upload>;

export const UploadResponse = z.object({ url: z.string(), message: z.string(), upload: Upload });
export type UploadResponse = z.infer<typeof UploadResponse>;

const boolish = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const ListUploadsQuery = z.object({
  search: z
    .string()
    .trim()
    .max(200)
    // Neither engine takes NUL inside text (SQLite's FTS5 query ends there; PostgreSQL refuses it).
    .refine((s) => !s.includes('\0'), 'must not contain a NUL character')
    .optional(),
  type: z.union([FileType, z.literal('')]).optional(),
  sort: Sort.default('newest'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(MIN_PAGE_SIZE).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export type ListUploadsQuery = z.input<typeof ListUploadsQuery>;

export const ListUploadsResponse = z.object({
  uploads: z.array(Upload),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type ListUploadsResponse = z.infer<typeof ListUploadsResponse>;

export const UpdateUploadRequest = z.object({
  vanityUrl: z.string().max(VANITY_MAX).nullable(),
});
export type UpdateUploadRequest = z.infer<typeof UpdateUploadRequest>;

export const BatchUploadIds = z.object({
  uploadIds: z.array(z.string().min(1).max(100)).min(1).max(1000),
});
export const BatchDeleteResponse = z.object({ deletedCount: z.number().int() });
export type BatchDeleteResponse = z.infer<typeof BatchDeleteResponse>;

export const AccessUrlResponse = z.object({
  url: z.string(),
  thumbnailUrl: z.string(),
  expiresAt: z.string(),
});
export type AccessUrlResponse = z.infer<typeof AccessUrlResponse>;

export const SimpleUploadFields = z.object({ isPublic: boolish.optional() });

export const ChunkInitRequest = z.object({
  filename: z.string().trim().min(1).max(255),
  mimeType: z.string().max(255).default(''),
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

export const ChunkCompleteRequest = z.object({ uploadId: z.string().min(1) });
export const ChunkCompleteResponse = z.object({
  url: z.string(),
  message: z.string(),
  upload: Upload,
});
export type ChunkCompleteResponse = z.infer<typeof ChunkCompleteResponse>;

export function expectedChunkCount(totalSize: number): number {
  return Math.max(1, Math.ceil(totalSize / CHUNK_SIZE));
}
