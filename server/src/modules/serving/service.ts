/**
 * What a link answers: who may read it (privacy, signed links), whether the client's copy is
 * current (ETag, Last-Modified), which bytes (ranges), and the view it counts. The answer is
 * plain data (and an opened body); routes.ts writes it to the response.
 */
import fsp, { type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { UploadRow } from '../../db/schema.ts';
import type { Storage } from '../../storage/storage.ts';
import type { UploadsService } from '../uploads/index.ts';
import type { Viewer } from '../users/index.ts';
import { isInlineSafe } from './content-policy.ts';
import { parseRange } from './http-range.ts';

const SLUG = /^[A-Za-z0-9_-]{1,50}$/;
/** Bodies up to this size are read whole (storage.read); larger local files are pumped. */
export const SMALL_BODY_BYTES = 128 * 1024;

/** An opened body: whole bytes, a local file to pump, or a stream from storage. */
export type Body = { bytes: Buffer } | { file: FileHandle } | { stream: Readable };

export type LinkRequest = {
  viewer: Viewer | null;
  /** expires and signature from the link's query string. */
  signed: { expires?: unknown; signature?: unknown };
  head: boolean;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  ifRange?: string;
  range?: string;
};

export type FileMeta = {
  etag: string;
  lastModified: Date;
  mimeType: string;
  filename: string;
  isPublic: boolean;
  inline: boolean;
};

export type FileAnswer =
  | { kind: 'not-found' }
  | { kind: 'not-modified'; meta: FileMeta }
  | { kind: 'unsatisfiable'; meta: FileMeta; size: number }
  | {
      kind: 'content';
      meta: FileMeta;
      size: number;
      /** null: the whole file. */
      range: { start: number; end: number } | null;
      length: number;
      /** null for HEAD. */
      body: Body | null;
    };

export type ThumbnailAnswer =
  | { kind: 'not-found' }
  | { kind: 'not-modified'; etag: string; isPublic: boolean }
  | { kind: 'content'; etag: string; isPublic: boolean; size: number; body: Body | null };

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** The client's copy is current (If-None-Match first, then If-Modified-Since). */
function notModified(req: LinkRequest, etag: string, lastModified: Date): boolean {
  if (req.ifNoneMatch !== undefined) return etagMatches(req.ifNoneMatch, etag);
  if (!req.ifModifiedSince) return false;
  const since = Date.parse(req.ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

export async function closeBody(body: Body | null): Promise<void> {
  if (!body) return;
  if ('file' in body) await body.file.close().catch(() => undefined);
  if ('stream' in body) body.stream.destroy();
}

export type ServingService = ReturnType<typeof createServingService>;

export function createServingService(deps: {
  uploads: UploadsService;
  storage: Storage;
  onError: (err: unknown, context: Record<string, unknown>) => void;
}) {
  const { uploads, storage } = deps;

  /**
   * Small bodies are read whole; large local files are opened for the file pump; anything
   * else streams from storage. A stored object shorter than its record is a server error,
   * caught before anything is sent.
   */
  async function openBody(key: string, start: number, length: number): Promise<Body> {
    const range = { start, end: start + length - 1 };
    if (length <= SMALL_BODY_BYTES) {
      const bytes = await storage.read(key, range);
      if (bytes.length !== length)
        throw new Error(`stored object ${key} is shorter than its record`);
      return { bytes };
    }
    const file = storage.localPath(key);
    if (file) return { file: await fsp.open(file, 'r') };
    return { stream: await storage.get(key, range) };
  }

  function metaOf(row: UploadRow): FileMeta {
    return {
      // An upload's bytes never change, so its id is a strong validator.
      etag: `"${row.id}"`,
      lastModified: new Date(row.created_at),
      mimeType: row.mime_type,
      filename: row.original_filename,
      isPublic: row.is_public === 1,
      inline: isInlineSafe(row.mime_type),
    };
  }

  return {
    /** GET or HEAD /{vanity or short code}. */
    async file(slug: string, req: LinkRequest): Promise<FileAnswer> {
      if (!SLUG.test(slug)) return { kind: 'not-found' };
      const row = await uploads.findBySlug(slug);
      if (!row || !uploads.mayRead(req.viewer, row, 'file', req.signed)) {
        return { kind: 'not-found' };
      }
      const meta = metaOf(row);
      if (notModified(req, meta.etag, meta.lastModified)) return { kind: 'not-modified', meta };

      const size = Number(row.size);
      const rangeHeader =
        req.ifRange === undefined || req.ifRange.trim() === meta.etag ? req.range : undefined;
      const range = parseRange(rangeHeader, size);
      if (range === 'unsatisfiable') return { kind: 'unsatisfiable', meta, size };
      const start = range === 'none' ? 0 : range.start;
      const length = range === 'none' ? size : range.end - range.start + 1;

      // The bytes are opened before a view is counted, so an upload whose bytes are gone
      // answers as a link that does not exist.
      let body: Body | null = null;
      try {
        if (req.head) {
          if ((await storage.size(row.storage_key)) === null) return { kind: 'not-found' };
        } else {
          body = await openBody(row.storage_key, start, length);
        }
      } catch (err) {
        if (isMissing(err)) return { kind: 'not-found' };
        throw err;
      }
      // Counting never fails the download nor holds it up for long (see countView).
      if (!req.head && start === 0) await uploads.countView(row.id);
      return {
        kind: 'content',
        meta,
        size,
        range: range === 'none' ? null : range,
        length,
        body,
      };
    },

    /** GET or HEAD /thumb/{short code}: made on first request when it is still pending. */
    async thumbnail(code: string, req: LinkRequest): Promise<ThumbnailAnswer> {
      const row = SLUG.test(code) ? await uploads.findByShortCode(code) : undefined;
      if (!row || !uploads.mayRead(req.viewer, row, 'thumbnail', req.signed)) {
        return { kind: 'not-found' };
      }
      let key: string | null;
      try {
        key = await uploads.thumbnailKey(row);
      } catch (err) {
        deps.onError(err, { uploadId: row.id, action: 'make thumbnail' });
        return { kind: 'not-found' };
      }
      const size = key ? await storage.size(key) : null;
      if (!key || size === null) return { kind: 'not-found' };
      const isPublic = row.is_public === 1;
      const etag = `"t-${key.split('/').pop()}"`;
      if (etagMatches(req.ifNoneMatch, etag)) return { kind: 'not-modified', etag, isPublic };
      if (req.head) return { kind: 'content', etag, isPublic, size, body: null };
      try {
        return { kind: 'content', etag, isPublic, size, body: await openBody(key, 0, size) };
      } catch (err) {
        if (isMissing(err)) return { kind: 'not-found' };
        throw err;
      }
    },
  };
}
