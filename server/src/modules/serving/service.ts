/**
 * What a link answers: who may read it (privacy, signed links), whether the client's copy is
 * current (ETag, Last-Modified), which bytes (ranges), and the view it counts. The answer is
 * plain data (and an opened body); routes.ts writes it to the response.
 */
import fsp, { type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Logger } from '../../lib/logger.ts';
import type { Storage } from '../../storage/storage.ts';
import type { LinkRow, UploadsService } from '../uploads/index.ts';
import type { Viewer } from '../users/index.ts';
import { createBodyCache } from './body-cache.ts';
import { contentDispositionHeader, contentTypeHeader, isInlineSafe } from './content-policy.ts';
import { parseRange } from './http-range.ts';

const SLUG = /^[A-Za-z0-9_-]{1,50}$/;
/** How long a presigned link to a file (S3_SERVE=presigned) may be used. */
export const PRESIGNED_SECONDS = 300;
/** Objects up to this size are read whole (storage.read) and kept in memory; larger are pumped. */
export const SMALL_BODY_BYTES = 128 * 1024;
/** Memory for the bytes of recently served small objects. */
const BODY_CACHE_BYTES = 32 * 1024 * 1024;
/** Uploads whose answer metadata is kept (see metaOf). */
const METAS_LIMIT = 10_000;

/** An opened body: whole bytes, a local file to pump, or a stream from storage. */
export type Body = { bytes: Buffer } | { file: FileHandle } | { stream: Readable };

export type LinkRequest = {
  viewer: Viewer | null;
  /** The request's logger: its lines carry the request id. */
  log: Logger;
  /** expires and signature from the link's query string. */
  signed: { expires?: unknown; signature?: unknown };
  head: boolean;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  ifRange?: string;
  range?: string;
};

export type FileMeta = Readonly<{
  etag: string;
  lastModified: Date;
  mimeType: string;
  filename: string;
  isPublic: boolean;
  inline: boolean;
}>;

export type FileAnswer =
  | { kind: 'not-found' }
  /** S3_SERVE=presigned: the bytes come from the store, at `location`. */
  | { kind: 'redirect'; meta: FileMeta; location: string }
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
  /** Answer GETs with a redirect to a presigned URL valid this long; off when null. */
  presignedSeconds?: number | null;
}) {
  const { uploads, storage } = deps;

  const bodies = createBodyCache(BODY_CACHE_BYTES);

  /** A small object's bytes, from the cache or read whole (and kept). */
  async function smallObject(key: string, size: number): Promise<Buffer> {
    const cached = bodies.get(key);
    if (cached) return cached;
    const bytes = await storage.read(key, { start: 0, end: size - 1 });
    if (bytes.length !== size) throw new Error(`stored object ${key} is shorter than its record`);
    bodies.set(key, bytes);
    return bytes;
  }

  /**
   * The bytes of a small object come from memory (see body-cache.ts); a small range of a large
   * one is read in one call; a large range of a local file is opened for the file pump;
   * anything else streams from storage. A stored object shorter than its record is a server
   * error, caught before anything is sent.
   */
  async function openBody(
    key: string,
    objectSize: number,
    start: number,
    length: number,
  ): Promise<Body> {
    if (objectSize <= SMALL_BODY_BYTES) {
      const whole = await smallObject(key, objectSize);
      return { bytes: length === objectSize ? whole : whole.subarray(start, start + length) };
    }
    const range = { start, end: start + length - 1 };
    if (length <= SMALL_BODY_BYTES) {
      const bytes = await storage.read(key, range);
      if (bytes.length !== length) {
        throw new Error(`stored object ${key} is shorter than its record`);
      }
      return { bytes };
    }
    const file = storage.localPath(key);
    if (file) return { file: await fsp.open(file, 'r') };
    return { stream: await storage.get(key, range) };
  }

  /** Whether the object exists, without a look at the store when its bytes are in memory. */
  async function exists(key: string): Promise<boolean> {
    return bodies.get(key) !== undefined || (await storage.size(key)) !== null;
  }

  /**
   * The answer's metadata, the same object while the upload's row says the same (so the
   * presenter makes its headers once): it is compared with the row on every request.
   */
  const metas = new Map<string, { row: LinkRow; meta: FileMeta }>();
  function metaOf(row: LinkRow): FileMeta {
    const known = metas.get(row.id);
    if (
      known &&
      known.row.is_public === row.is_public &&
      known.row.mime_type === row.mime_type &&
      known.row.original_filename === row.original_filename &&
      known.row.created_at === row.created_at
    ) {
      return known.meta;
    }
    const meta: FileMeta = Object.freeze({
      // An upload's bytes never change, so its id is a strong validator.
      etag: `"${row.id}"`,
      lastModified: new Date(row.created_at),
      mimeType: row.mime_type,
      filename: row.original_filename,
      isPublic: row.is_public === 1,
      inline: isInlineSafe(row.mime_type),
    });
    if (metas.size >= METAS_LIMIT) metas.clear();
    metas.set(row.id, { row, meta });
    return meta;
  }

  return {
    /** GET or HEAD /{vanity or short code}. */
    async file(slug: string, req: LinkRequest): Promise<FileAnswer> {
      if (!SLUG.test(slug)) return { kind: 'not-found' };
      const row = await uploads.findLink(slug);
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

      // Access, freshness and the range are checked above; the store sends the bytes (the
      // browser repeats its Range header to it). HEAD stays here: it costs no bytes.
      if (deps.presignedSeconds && !req.head) {
        const location = await storage.presignedGet(row.storage_key, {
          expiresInSeconds: deps.presignedSeconds,
          contentType: contentTypeHeader(meta.mimeType),
          contentDisposition: contentDispositionHeader(meta.filename, meta.inline),
        });
        if (location) {
          if (start === 0) uploads.countView(row.id);
          return { kind: 'redirect', meta, location };
        }
      }

      // The bytes are opened before a view is counted, so an upload whose bytes are gone
      // answers as a link that does not exist.
      let body: Body | null = null;
      // A small body in memory: no await, no look at the store.
      const cached =
        !req.head && size <= SMALL_BODY_BYTES ? bodies.get(row.storage_key) : undefined;
      if (cached) {
        body = { bytes: length === size ? cached : cached.subarray(start, start + length) };
      } else {
        try {
          if (req.head) {
            if (!(await exists(row.storage_key))) return { kind: 'not-found' };
          } else {
            body = await openBody(row.storage_key, size, start, length);
          }
        } catch (err) {
          if (isMissing(err)) return { kind: 'not-found' };
          throw err;
        }
      }
      // Counting never fails the download nor holds it up (views are committed in batches).
      if (!req.head && start === 0) uploads.countView(row.id);
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
        req.log.error({ err, uploadId: row.id }, 'could not make the thumbnail');
        return { kind: 'not-found' };
      }
      if (!key) return { kind: 'not-found' };
      // A thumbnail's row does not record its size.
      const size = bodies.get(key)?.length ?? (await storage.size(key));
      if (size === null) return { kind: 'not-found' };
      const isPublic = row.is_public === 1;
      const etag = `"t-${key.split('/').pop()}"`;
      if (etagMatches(req.ifNoneMatch, etag)) return { kind: 'not-modified', etag, isPublic };
      if (req.head) return { kind: 'content', etag, isPublic, size, body: null };
      try {
        return { kind: 'content', etag, isPublic, size, body: await openBody(key, size, 0, size) };
      } catch (err) {
        if (isMissing(err)) return { kind: 'not-found' };
        throw err;
      }
    },
  };
}
