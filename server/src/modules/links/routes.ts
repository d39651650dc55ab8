/** The share links: GET/HEAD /{vanityOrShortCode} and /thumb/{shortCode}. */
import { API } from '@upshot/contract';
import type { FileHandle } from 'node:fs/promises';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../errors.ts';
import { route } from '../../plugins/route-table.ts';
import { pumpFile } from './file-pump.ts';
import { baseHeaders, keptFileHeaders } from './presenter.ts';
import type { Body, LinkRequest, LinksService } from './service.ts';

function linkRequest(request: FastifyRequest): LinkRequest {
  const h = request.headers;
  const q = request.query as Record<string, unknown>;
  const header = (v: string | string[] | undefined) => (typeof v === 'string' ? v : undefined);
  return {
    // A session that must choose its password first opens nothing the public cannot.
    viewer: request.auth && !request.auth.user.mustChangePassword ? request.auth.user : null,
    log: request.log,
    signed: { expires: q.expires, signature: q.signature },
    head: request.method === 'HEAD',
    ifNoneMatch: header(h['if-none-match']),
    ifModifiedSince: header(h['if-modified-since']),
    ifRange: header(h['if-range']),
    range: header(h.range),
  };
}

/**
 * A stream ends with its connection: a response queued behind another on a pipelined
 * connection gets no 'close' of its own when the client leaves, and its stream would keep a
 * file open.
 */
function sendStream(reply: FastifyReply, stream: Readable) {
  const socket = reply.request.raw.socket;
  const onClose = () => stream.destroy();
  socket.once('close', onClose);
  stream.once('close', () => socket.off('close', onClose));
  return reply.send(stream);
}

/** A large local file goes out through recycled buffers on the raw response. */
function sendFile(reply: FastifyReply, file: FileHandle, start: number, length: number) {
  reply.hijack();
  const head = { status: reply.statusCode, headers: reply.getHeaders() as OutgoingHttpHeaders };
  pumpFile(file, start, length, reply.raw, head).catch((err: unknown) => {
    if (reply.raw.headersSent) reply.log.debug({ err }, 'download ended early');
    else reply.log.error({ err }, 'could not send the response head');
    reply.raw.destroy();
  });
  return reply;
}

function send(reply: FastifyReply, body: Body | null, start: number, length: number) {
  if (!body) return reply.send();
  if ('bytes' in body) return reply.send(body.bytes);
  if ('file' in body) return sendFile(reply, body.file, start, length);
  return sendStream(reply, body.stream);
}

export function linksRoutes(deps: { links: LinksService; publicMaxAgeSeconds: number }) {
  const { links, publicMaxAgeSeconds } = deps;
  const headersOf = keptFileHeaders(publicMaxAgeSeconds);
  return [
    route(API.thumbnail, async ({ request, reply, params }) => {
      const answer = await links.thumbnail(params.code, linkRequest(request));
      if (answer.kind === 'not-found') throw new NotFoundError('Thumbnail not found');
      reply.headers({
        ...baseHeaders(answer.isPublic, publicMaxAgeSeconds),
        etag: answer.etag,
        'content-type': 'image/webp',
      });
      if (answer.kind === 'not-modified') return reply.status(304).send();
      reply.status(200).header('content-length', String(answer.size));
      return send(reply, answer.body, 0, answer.size);
    }),
    route(API.file, async ({ request, reply, params }) => {
      const answer = await links.file(params.slug, linkRequest(request));
      if (answer.kind === 'not-found') {
        reply.callNotFound();
        return reply;
      }
      if (answer.kind === 'redirect') {
        // For this request only: never cached past the presigned URL's life.
        return reply
          .header('cache-control', 'private, no-store')
          .header('referrer-policy', 'no-referrer')
          .redirect(answer.location, 302);
      }
      reply.headers(headersOf(answer.meta));
      if (answer.kind === 'not-modified') return reply.status(304).send();
      if (answer.kind === 'unsatisfiable') {
        return reply.status(416).header('content-range', `bytes */${answer.size}`).send();
      }
      const { range, length, size } = answer;
      reply.status(range ? 206 : 200).header('content-length', String(length));
      if (range) reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
      return send(reply, answer.body, range?.start ?? 0, length);
    }),
  ];
}
