/**
 * The last line of defence: an error that escapes a request (or a background job) is logged
 * with the request it came from, and the process stays up for every other request. Errors
 * are still bugs: each one logged here is fixed where it was thrown.
 */
import type { FastifyBaseLogger } from 'fastify';
import { currentRequest } from './request-context.ts';

export function installProcessGuard(log: FastifyBaseLogger): () => void {
  const onError = (kind: string) => (err: unknown) => {
    const request = currentRequest();
    log.error(
      { err, reqId: request?.requestId, url: request?.url },
      `${kind} kept from stopping the server`,
    );
  };
  const uncaught = onError('uncaught exception');
  const unhandled = onError('unhandled rejection');
  process.on('uncaughtException', uncaught);
  process.on('unhandledRejection', unhandled);
  return () => {
    process.off('uncaughtException', uncaught);
    process.off('unhandledRejection', unhandled);
  };
}
