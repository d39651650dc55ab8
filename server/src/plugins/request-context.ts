/**
 * Every request's id: the client's or proxy's `X-Request-Id` when it is a plain token, else a
 * new one, echoed in the answer's `X-Request-Id`. Fastify logs every line about the request
 * through `request.log`, which carries it as `reqId`; code that logs on a request's behalf
 * is given that logger. Work that outlives its request (bookkeeping after the answer, batched
 * view counts, mail) logs the ids of what it worked on instead.
 *
 * The id is also kept in an AsyncLocalStorage for the request's whole asynchronous life, so an
 * error that escapes it (a timer's, an emitter's) is logged with it (process-guard.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
/** What an incoming id may be: short, and nothing a log or a header could trip on. */
const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Fastify's genReqId: the incoming X-Request-Id when usable, else a random UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/** The id of the request whose work is running now, if any. */
const current = new AsyncLocalStorage<string>();
export const currentRequestId = (): string | undefined => current.getStore();

/** Echoes every request's id in its answer, and keeps it for everything the request starts. */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    current.run(request.id, done);
  });
}
