/** The share links: GET/HEAD /{vanityOrShortCode} and /thumb/{shortCode}. */
import type { OutgoingHttpHeaders } from 'node:http';
import { API } from '@upshot/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../errors.ts';
import { route } from '../../plugins/route-table.ts';
import { pumpFile } from './file-pump.ts';
import { baseHeaders, fileHeaders } from './presenter.ts';
import { closeBody, type Body, type LinkRequest, type ServingService } from './service.ts';

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

function send(reply: FastifyReply, body: Body | null, start: number, length: number) {
  if (!body) return reply.send();
  if ('bytes' in body) return reply.send(body.bytes);
  if ('stream' in body) return reply.send(body.stream);
  // A large local file goes out through recycled buffers on the raw response.
  reply.hijack();
  try {
    reply.raw.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
  } catch (err) {
    void closeBody(body);
    reply.log.error({ err }, 'could not send the response head');
    reply.raw.destroy();
    return reply;
  }
  pumpFile(body.file, start, length, reply.raw).catch((err: unknown) => {
    reply.log.debug({ err }, 'download ended early');
    reply.raw.destroy();
  });
  return reply;
}

export function servingRoutes(deps: { serving: ServingService }) {
  const { serving } = deps;
  return [
    route(API.thumbnail, async ({ request, reply, params }) => {
      const answer = await serving.thumbnail(params.code, linkRequest(request));
      if (answer.kind === 'not-found') throw new NotFoundError('Thumbnail not found');
      reply.headers({
        ...baseHeaders(answer.isPublic),
        etag: answer.etag,
        'content-type': 'image/webp',
      });
      if (answer.kind === 'not-modified') return reply.status(304).send();
      reply.status(200).header('content-length', String(answer.size));
      return send(reply, answer.body, 0, answer.size);
    }),

    route(API.file, async ({ request, reply, params }) => {
      const answer = await serving.file(params.slug, linkRequest(request));
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
      reply.headers(fileHeaders(answer.meta));
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
