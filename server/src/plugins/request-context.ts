/**
 * Every request's id: the client's or proxy's `X-Request-Id` when it is a plain token, else a
 * new one, echoed in the answer's `X-Request-Id` and logged on every line about the request.
 * The id is also kept where code outside the request's own chain can find it: the logger
 * (app.ts) puts it on lines that services log, and a failure that escapes a request (an
 * 'error' event nobody listened to, a rejected promise nobody awaited) is logged with the
 * request it came from (process-guard.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { loggableUrl } from '../lib/logger.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
/** What an incoming id may be: short, and nothing a log or a header could trip on. */
const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

const store = new AsyncLocalStorage<{ requestId: string; url: string }>();

export function currentRequest(): { requestId: string; url: string } | undefined {
  return store.getStore();
}

/** Fastify's genReqId: the incoming X-Request-Id when usable, else a random UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

export function registerRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    store.run({ requestId: request.id, url: loggableUrl(request.url) }, done);
  });
}
