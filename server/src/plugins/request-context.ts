/**
 * Keeps the current request's id where code outside the request's own chain can find it, so a
 * failure that escapes a request (an 'error' event nobody listened to, a rejected promise
 * nobody awaited) is logged with the request it came from; process-guard.ts does the logging.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import { loggableUrl } from '../lib/logger.ts';

const store = new AsyncLocalStorage<{ requestId: string; url: string }>();

export function currentRequest(): { requestId: string; url: string } | undefined {
  return store.getStore();
}

export function registerRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    store.run({ requestId: request.id, url: loggableUrl(request.url) }, done);
  });
}
