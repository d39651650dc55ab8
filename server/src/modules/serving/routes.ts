/** The share links: GET/HEAD /{vanityOrShortCode} and /thumb/{shortCode}. */
import fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import contentDisposition from 'content-disposition';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UploadRow } from '../../db/schema.ts';
import { NotFoundError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Storage } from '../../storage/storage.ts';
import type { Links } from '../uploads/links.ts';
import { canReadUpload } from '../uploads/policy.ts';
import type { UploadsRepository } from '../uploads/repository.ts';
import { contentTypeHeader, FILE_CSP, isInlineSafe } from './content-policy.ts';
import { pumpFile } from './file-pump.ts';
import { parseRange } from './http-range.ts';
import type { Thumbnailer } from './thumbnails.ts';

const SLUG = /^[A-Za-z0-9_-]{1,50}$/;
/** Bodies up to this size are read whole (storage.read); larger local files use pumpFile. */
const SMALL_BODY_BYTES = 128 * 1024;

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** 304 when the client's copy is current (If-None-Match first, then If-Modified-Since). */
function notModified(request: FastifyRequest, etag: string, lastModified: Date): boolean {
  const inm = request.headers['if-none-match'];
  if (inm !== undefined) return etagMatches(inm, etag);
  const ims = request.headers['if-modified-since'];
  if (!ims) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

export function servingRoutes(
  app: FastifyInstance,
  deps: {
    uploads: UploadsRepository;
    storage: Storage;
    links: Links;
    thumbnails: Thumbnailer;
    clock: Clock;
  },
): void {
  const { uploads, storage, links, thumbnails, clock } = deps;

  /** Private uploads: their owner, an admin, or a valid signed link; otherwise "not found". */
  function allowed(request: FastifyRequest, row: UploadRow): boolean {
    if (canReadUpload(request.auth?.user ?? null, row)) return true;
    const q = request.query as Record<string, unknown>;
    return links.verify(row.id, q.expires, q.signature, clock.now().getTime());
  }

  function commonHeaders(reply: FastifyReply, row: UploadRow) {
    reply
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', FILE_CSP)
      .header('cache-control', row.is_public === 1 ? 'public, max-age=3600' : 'private, no-cache');
  }

  async function serveFile(request: FastifyRequest, reply: FastifyReply) {
    const { slug } = request.params as { slug: string };
    if (!SLUG.test(slug)) return reply.callNotFound();
    const row = await uploads.findBySlug(slug);
    if (!row || !allowed(request, row)) return reply.callNotFound();

    const size = Number(row.size);
    // An upload's bytes never change, so its id is a strong validator.
    const etag = `"${row.id}"`;
    const lastModified = new Date(row.created_at);
    commonHeaders(reply, row);
    reply
      .header('etag', etag)
      .header('last-modified', lastModified.toUTCString())
      .header('accept-ranges', 'bytes')
      .header('content-type', contentTypeHeader(row.mime_type))
      .header(
        'content-disposition',
        contentDisposition(row.original_filename, {
          type: isInlineSafe(row.mime_type) ? 'inline' : 'attachment',
          // An ASCII filename= for old clients, and filename*= (RFC 5987) whenever that loses anything.
          fallback: row.original_filename.replace(/[^\x20-\x7e]/g, '_'),
        }),
      );

    if (notModified(request, etag, lastModified)) return reply.status(304).send();

    const ifRange = request.headers['if-range'];
    const rangeHeader =
      typeof ifRange !== 'string' || ifRange.trim() === etag ? request.headers.range : undefined;
    const range = parseRange(rangeHeader, size);
    if (range === 'unsatisfiable') {
      return reply.status(416).header('content-range', `bytes */${size}`).send();
    }
    const isHead = request.method === 'HEAD';
    const start = range === 'none' ? 0 : range.start;
    const length = range === 'none' ? size : range.end - range.start + 1;

    // The bytes are opened before a view is counted or a status is sent, so an upload whose
    // bytes are gone answers as a link that does not exist.
    let body: Body | null = null;
    try {
      if (isHead) {
        if ((await storage.size(row.storage_key)) === null) return bytesGone(reply);
      } else {
        body = await openBody(row.storage_key, start, length);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return bytesGone(reply);
      clearHeaders(reply);
      throw err;
    }

    try {
      if (!isHead && start === 0) await uploads.incrementViews(row.id);
    } catch (err) {
      if (body && 'file' in body) await body.file.close();
      throw err;
    }
    reply.status(range === 'none' ? 200 : 206).header('content-length', String(length));
    if (range !== 'none') reply.header('content-range', `bytes ${start}-${range.end}/${size}`);
    return body ? sendBody(reply, body, start, length) : reply.send();
  }

  type Body = { bytes: Buffer } | { file: FileHandle } | { stream: Readable };

  /** None of the file's headers belong on an error answer. */
  function clearHeaders(reply: FastifyReply) {
    for (const name of Object.keys(reply.getHeaders())) reply.removeHeader(name);
  }

  /** The record outlived its bytes: answer as for a link that does not exist. */
  function bytesGone(reply: FastifyReply) {
    clearHeaders(reply);
    return reply.callNotFound();
  }

  /**
   * Small bodies are read whole and sent as one buffer. Large local files go out through
   * recycled buffers (file-pump.ts) on the raw response, so they are opened as files; anything
   * else is a stream from storage.
   */
  async function openBody(key: string, start: number, length: number): Promise<Body> {
    const range = { start, end: start + length - 1 };
    if (length <= SMALL_BODY_BYTES) {
      const bytes = await storage.read(key, range);
      // Caught before any header is sent: a server error, not a short file.
      if (bytes.length !== length)
        throw new Error(`stored object ${key} is shorter than its record`);
      return { bytes };
    }
    const file = storage.localPath(key);
    if (file) return { file: await fsp.open(file, 'r') };
    return { stream: await storage.get(key, range) };
  }

  function sendBody(reply: FastifyReply, body: Body, start: number, length: number) {
    if ('bytes' in body) return reply.send(body.bytes);
    if ('stream' in body) return reply.send(body.stream);
    return pump(reply, body.file, start, length);
  }

  function pump(reply: FastifyReply, fh: FileHandle, start: number, length: number) {
    reply.hijack();
    try {
      reply.raw.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
    } catch (err) {
      void fh.close();
      reply.log.error({ err }, 'could not send the response head');
      reply.raw.destroy();
      return reply;
    }
    pumpFile(fh, start, length, reply.raw).catch((err: unknown) => {
      reply.log.debug({ err }, 'download ended early');
      reply.raw.destroy();
    });
    return reply;
  }

  async function serveThumbnail(request: FastifyRequest, reply: FastifyReply) {
    const { code } = request.params as { code: string };
    const row = SLUG.test(code) ? await uploads.findByShortCode(code) : undefined;
    if (!row || !allowed(request, row)) throw new NotFoundError('Thumbnail not found');
    const key = await thumbnails.keyFor(row);
    const size = key ? await storage.size(key) : null;
    if (!key || size === null) throw new NotFoundError('Thumbnail not found');
    commonHeaders(reply, row);
    const etag = `"t-${key.split('/').pop()}"`;
    reply.header('etag', etag).header('content-type', 'image/webp');
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.status(304).send();
    reply.header('content-length', String(size));
    if (request.method === 'HEAD') return reply.send();
    let body: Body;
    try {
      body = await openBody(key, 0, size);
    } catch (err) {
      clearHeaders(reply);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new NotFoundError('Thumbnail not found');
      }
      throw err;
    }
    return sendBody(reply, body, 0, size);
  }

  app.route({ method: ['GET', 'HEAD'], url: '/thumb/:code', handler: serveThumbnail });
  app.route({ method: ['GET', 'HEAD'], url: '/:slug', handler: serveFile });
}
