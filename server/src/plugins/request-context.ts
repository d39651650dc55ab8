/**
 * Every request's id: the client's or proxy's `X-Request-Id` when it is a plain token, else a
 * new one, echoed in the answer's `X-Request-Id`. Fastify logs every line about the request
 * through `request.log`, which carries it as `reqId`; code that logs on a request's behalf
 * is given that logger (a route's readiness reasons, a link's thumbnail failure). Work that
 * outlives its request (bookkeeping after the answer, batched view counts, mail) logs the ids
 * of what it worked on instead.
 *
 * There is deliberately no AsyncLocalStorage: on Node 20 it turns on async hooks for every
 * promise of every request, which cost small downloads a third of their throughput and
 * doubled their p99 (docs/PERFORMANCE.md).
 */
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestStep } from './request-steps.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
/** What an incoming id may be: short, and nothing a log or a header could trip on. */
const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Fastify's genReqId: the incoming X-Request-Id when usable, else a random UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/** The step that echoes the request's id in its answer. */
export const echoRequestId: RequestStep = (request, reply) => {
  reply.header(REQUEST_ID_HEADER, request.id);
};
