/**
 * What a link answers: whether the caller gets through its gate (privacy, expiry, password,
 * view limit: `gate`, the one every route that serves bytes calls), whether the client's copy
 * is current (ETag, Last-Modified), which bytes (ranges), and the view it counts or spends. The
 * answer is plain data and an opened body; routes.ts writes it to the response.
 */
import fsp, { type FileHandle } from 'node:fs/promises';
import { pipeline, Transform, type Readable } from 'node:stream';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Storage } from '../../storage/storage.ts';
import type { Actor } from '../../lib/caller.ts';
import type { AuditService } from '../audit/index.ts';
import { createBodyCache } from './body-cache.ts';
import { contentDispositionHeader, contentTypeHeader, isInlineSafe } from './content-policy.ts';
import { parseRange } from './http-range.ts';
import { createGate, type AttemptLimits, type GateRequest, type Refusal } from './gate.ts';
import { isExpired, type GatedRow } from './policy.ts';
import { isOpenToAll, type LinkCookie, type LinkUrls } from './urls.ts';
import type { LinkRow, LinksRepository, PreviewRow } from './repository.ts';
import { createOEmbed } from './oembed.ts';
import { embedOf } from './embed-tags.ts';
import { createViewCounter } from './view-counter.ts';
import { createPreviews, type EmbedSettingsOf } from './preview.ts';

const SLUG = /^[A-Za-z0-9_-]{1,50}$/;
/** How long a presigned link to a file (S3_SERVE=presigned) may be used. */
export const PRESIGNED_SECONDS = 300;
/** Objects up to this size are read whole (storage.read) and kept in memory; larger stream. */
export const SMALL_BODY_BYTES = 128 * 1024;
/** Memory for the bytes of recently served small objects. */
const BODY_CACHE_BYTES = 32 * 1024 * 1024;
/** Views are committed at most this long after they are counted (see view-counter.ts). */
export const VIEW_FLUSH_MS = 250;
/** The longest pause between attempts to commit views while the database refuses them. */
const VIEW_RETRY_MAX_MS = 30_000;

/** A body: bytes in memory, an open local file (sent by file-pump.ts), or a store's stream. */
export type Body = { bytes: Buffer } | { file: FileHandle } | { stream: Readable };

export type LinkRequest = GateRequest & {
  /** The request's logger: its lines carry the request id. */
  log: Logger;
  head: boolean;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  ifRange?: string;
  range?: string;
  /** `?download`: the file as an attachment, whatever its type (the preview's Download button). */
  download?: boolean;
  /** The browser loads it into a frame (`Sec-Fetch-Dest: iframe`). */
  frame?: boolean;
  /** `?frame`: the URL of a PDF's copy for its preview page's frame (see metaOf). */
  frameCopy?: boolean;
};

export type FileMeta = {
  etag: string;
  lastModified: Date;
  mimeType: string;
  filename: string;
  /** Shared caches may keep it: public, no password, no view limit, no expiry. */
  cacheable: boolean;
  inline: boolean;
  /** A PDF shown in a frame of its preview page: inline, and only same-origin pages may frame it. */
  framed: boolean;
  /** A PDF's `?frame` URL: its answer depends on Sec-Fetch-Dest, so no shared cache keeps it. */
  frameCopy: boolean;
};

export type FileAnswer =
  | { kind: 'not-found' }
  | Refusal
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
      /** The cookie of the view this request spent, for the rest of the download. */
      grant: LinkCookie | null;
    };

export type ThumbnailAnswer =
  | { kind: 'not-found' }
  | Refusal
  | { kind: 'not-modified'; etag: string; cacheable: boolean }
  | { kind: 'content'; etag: string; cacheable: boolean; size: number; body: Body | null };

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

/**
 * The stream's bytes, failing when more than `length` come, or fewer by its end: a stored object
 * unlike its record must break the response, not end it short of (or past) its Content-Length.
 */
function exactly(source: Readable, length: number, key: string): Readable {
  let seen = 0;
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > length) done(new Error(`stored object ${key} is longer than asked`));
      else done(null, chunk);
    },
    flush(done) {
      done(seen === length ? null : new Error(`stored object ${key} is short`));
    },
  });
  // Destroying the result (the client left) destroys the source too.
  return pipeline(source, check, () => {});
}

/** An administrator opening another user's private file: their view goes to the audit log. */
function isAudited(viewer: Actor | null, row: LinkRow): viewer is Actor {
  return viewer?.role === 'admin' && row.is_public === 0 && viewer.id !== row.user_id;
}

function metaOf(row: LinkRow, req: LinkRequest): FileMeta {
  // A PDF is an attachment (content-policy.ts says why) but at its own URL for the preview
  // page's frame, `?frame`, and there only when the browser loads it into a frame: one URL
  // that answers a navigation and a frame alike. That answer varies by Sec-Fetch-Dest, which a
  // CDN may ignore, so it is private; the link itself answers one way and stays cacheable.
  const frameCopy =
    !req.download && req.frameCopy === true && row.mime_type.toLowerCase() === 'application/pdf';
  const framed = frameCopy && req.frame === true;
  return {
    // An upload's bytes never change, so its id is a strong validator.
    etag: `"${row.id}"`,
    lastModified: new Date(row.created_at),
    mimeType: row.mime_type,
    filename: row.original_filename,
    cacheable: isCacheable(row) && !frameCopy,
    inline: framed || (!req.download && isInlineSafe(row.mime_type)),
    framed,
    frameCopy,
  };
}

/** Behind a password or a view limit: served only through the gate, never by the store. */
function isControlled(row: GatedRow): boolean {
  return row.password_hash !== null || row.max_views !== null;
}

function isCacheable(row: GatedRow): boolean {
  return isOpenToAll(row) && row.expires_at === null;
}

/** Gives back what openBody opened, for an answer that will not send it. */
async function closeBody(body: Body | null): Promise<void> {
  if (!body) return;
  if ('file' in body) await body.file.close();
  else if ('stream' in body) body.stream.destroy();
}

export type LinksService = ReturnType<typeof createLinksService>;

export function createLinksService(deps: {
  links: LinksRepository;
  storage: Storage;
  urls: LinkUrls;
  clock: Clock;
  /** Answer GETs with a redirect to a presigned URL valid this long; off when null. */
  presignedSeconds: number | null;
  audit: Pick<AuditService, 'onOtherUsersUploads'>;
  /** The limits on wrong link passwords, kept in the database (auth's counters). */
  attempts: AttemptLimits;
  /** Checks a password against its argon2id hash. */
  verifyPassword: (hash: string, password: string) => Promise<boolean>;
  /** How an uploader's links present themselves in chat apps. */
  embedSettings: EmbedSettingsOf;
  /** Where a failure to commit views goes (they are kept and tried again). */
  onError: (err: unknown, context: Record<string, unknown>) => void;
}) {
  const { links, storage, urls, clock } = deps;
  const bodies = createBodyCache(BODY_CACHE_BYTES);
  const views = createViewCounter({
    commit: (counts) => links.addViews(counts),
    onError: deps.onError,
    intervalMs: VIEW_FLUSH_MS,
    maxRetryMs: VIEW_RETRY_MAX_MS,
  });
  const gates = createGate({
    urls,
    clock,
    attempts: deps.attempts,
    verifyPassword: deps.verifyPassword,
  });
  const gate = gates.gate;
  /** What a page's embeds and the oEmbed answer say of an upload, as its uploader set. */
  const describe = async (row: PreviewRow) => ({
    embed: embedOf(row, await deps.embedSettings(row.user_id)),
    thumbnailUrl:
      row.thumbnail_status === 'ready' && isOpenToAll(row)
        ? urls.thumbnailUrl(row, clock.now().getTime())
        : null,
  });
  const isSlug = (slug: string) => SLUG.test(slug);
  const findPreview = (slug: string) => links.findPreview(slug);
  /** A read of the file's bytes: an administrator's of another user's private file is audited. */
  const auditRead = async (viewer: Actor | null, row: LinkRow) => {
    if (isAudited(viewer, row)) await deps.audit.onOtherUsersUploads(viewer, 'upload.read', [row]);
  };
  const previews = createPreviews({
    findPreview,
    gate,
    storage,
    isSlug,
    describe,
    onRead: auditRead,
  });
  const oembed = createOEmbed({
    publicUrl: urls.publicUrl,
    contentUrl: urls.contentUrl,
    clock,
    findPreview,
    isSlug,
    describe,
  });

  /**
   * A small object's bytes come from memory (see body-cache.ts), read whole the first time; a
   * small range of a large one is read in one call; anything else streams from storage. A
   * stored object shorter than its record is a server error, caught before anything is sent.
   */
  async function openBody(
    key: string,
    objectSize: number,
    start: number,
    length: number,
  ): Promise<Body> {
    if (objectSize <= SMALL_BODY_BYTES) {
      let whole = bodies.get(key);
      if (!whole) {
        whole = await storage.read(key, { start: 0, end: objectSize - 1 });
        if (whole.length !== objectSize) throw new Error(`stored object ${key} is short`);
        bodies.set(key, whole);
      }
      return { bytes: length === objectSize ? whole : whole.subarray(start, start + length) };
    }
    const range = { start, end: start + length - 1 };
    if (length <= SMALL_BODY_BYTES) {
      const bytes = await storage.read(key, range);
      if (bytes.length !== length) throw new Error(`stored object ${key} is short`);
      return { bytes };
    }
    const file = storage.localPath(key);
    if (file) return { file: await fsp.open(file, 'r') };
    return { stream: exactly(await storage.get(key, range), length, key) };
  }

  /** Whether the object exists, without a look at the store when its bytes are in memory. */
  async function exists(key: string): Promise<boolean> {
    return bodies.get(key) !== undefined || (await storage.size(key)) !== null;
  }

  return {
    /** GET or HEAD /{vanity or short code}. */
    async file(slug: string, req: LinkRequest): Promise<FileAnswer> {
      if (!SLUG.test(slug)) return { kind: 'not-found' };
      const row = await links.findLink(slug);
      if (!row) return { kind: 'not-found' };
      const pass = await gate(row, req, 'file');
      if (pass.kind !== 'pass') return pass;
      const meta = metaOf(row, req);
      if (notModified(req, meta.etag, meta.lastModified)) return { kind: 'not-modified', meta };

      const size = Number(row.size);
      const rangeHeader =
        req.ifRange === undefined || req.ifRange.trim() === meta.etag ? req.range : undefined;
      const range = parseRange(rangeHeader, size);
      if (range === 'unsatisfiable') return { kind: 'unsatisfiable', meta, size };
      const start = range === 'none' ? 0 : range.start;
      const length = range === 'none' ? size : range.end - range.start + 1;
      // A GET from the first byte is a view (a resumed download or a seek is not); the audit
      // entry for one, if any, is written before a byte goes.
      const view = !req.head && start === 0;
      if (view) await auditRead(req.viewer, row);
      // A visitor's download of a view-limited link spends a view, unless this browser spent
      // one already (its grant: the rest of that download, seeking, a reload).
      const spends = pass.visitor && row.max_views !== null && !pass.granted && !req.head;

      // Access, freshness and the range are checked above; the store sends the bytes (the
      // browser repeats its Range header to it). HEAD stays here: it costs no bytes. A link
      // with a password or a view limit is never handed to the store: its URL could be reused.
      // Nor a PDF's framed copy: the store can neither sandbox it nor say who may frame it.
      if (deps.presignedSeconds && !req.head && !isControlled(row) && !meta.frameCopy) {
        // An expiring link's URL lives no longer than the link.
        const left =
          row.expires_at === null ? Infinity : Date.parse(row.expires_at) - clock.now().getTime();
        const location = await storage.presignedGet(row.storage_key, {
          expiresInSeconds: Math.max(1, Math.min(deps.presignedSeconds, Math.floor(left / 1000))),
          contentType: contentTypeHeader(meta.mimeType),
          contentDisposition: contentDispositionHeader(meta.filename, meta.inline),
        });
        if (location) {
          if (view) views.count(row.id);
          return { kind: 'redirect', meta, location };
        }
      }

      // The bytes are opened before a view is counted or spent, so an upload whose bytes are
      // gone answers as a link that does not exist.
      let body: Body | null = null;
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
      let grant: LinkCookie | null = null;
      if (spends) {
        const now = clock.now();
        const claimed = await links.claimView(row.id, now.toISOString()).catch(async (err) => {
          await closeBody(body);
          throw err;
        });
        if (!claimed) {
          await closeBody(body);
          return { kind: 'gone', reason: isExpired(row, clock.now()) ? 'expired' : 'used-up' };
        }
        grant = urls.viewGrant(row.id, now.getTime());
      }
      // Counting never fails the download nor holds it up (views are committed in batches).
      if (view) views.count(row.id);
      return {
        kind: 'content',
        meta,
        size,
        range: range === 'none' ? null : range,
        length,
        body,
        grant,
      };
    },

    /**
     * GET or HEAD /thumb/{short code}. Thumbnails are made in the background only: one not
     * made yet, or that cannot be made, answers as none.
     */
    async thumbnail(code: string, req: LinkRequest): Promise<ThumbnailAnswer> {
      const row = SLUG.test(code) ? await links.findThumbnail(code) : undefined;
      if (!row) return { kind: 'not-found' };
      const pass = await gate(row, req, 'thumbnail');
      if (pass.kind !== 'pass') return pass;
      // Fetching a thumbnail spends no view: a view-limited link's shows only to its managers.
      if (pass.visitor && row.max_views !== null) return { kind: 'not-found' };
      const key = row.thumbnail_status === 'ready' ? row.thumbnail_key : null;
      if (!key) return { kind: 'not-found' };
      // A thumbnail's row does not record its size.
      const size = bodies.get(key)?.length ?? (await storage.size(key));
      if (size === null) return { kind: 'not-found' };
      const cacheable = isCacheable(row);
      const etag = `"t-${key.split('/').pop()}"`;
      if (etagMatches(req.ifNoneMatch, etag)) return { kind: 'not-modified', etag, cacheable };
      if (req.head) return { kind: 'content', etag, cacheable, size, body: null };
      try {
        const body = await openBody(key, size, 0, size);
        return { kind: 'content', etag, cacheable, size, body };
      } catch (err) {
        if (isMissing(err)) return { kind: 'not-found' };
        throw err;
      }
    },

    /** GET or HEAD /v/{slug}: the preview page (preview.ts). */
    preview: previews.preview,

    /** GET /api/oembed (oembed.ts). */
    oembed,

    /** POST /{slug} or /v/{slug}: the password form (gate.ts). */
    async unlock(slug: string, password: string, req: LinkRequest) {
      return gates.unlock(SLUG.test(slug) ? await links.findLink(slug) : undefined, password, req);
    },

    /**
     * Commits every view counted so far; rejects when the database refuses them (they are kept
     * and tried again).
     */
    flushViews: () => views.flush(),

    /** Commits what is pending and stops the timer: for the app's onClose. */
    closeViews: () => views.close(),
  };
}
