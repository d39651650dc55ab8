/**
 * The last line of defence: an error that escapes a request (or a background job) is logged
 * with its stack, and the process stays up for every other request. Errors are still bugs:
 * each one logged here is fixed where it was thrown. (Which request it escaped from is not
 * known here: that would take AsyncLocalStorage on every request, see request-context.ts.)
 */
import type { FastifyBaseLogger } from 'fastify';

export function installProcessGuard(log: FastifyBaseLogger): () => void {
  const onError = (kind: string) => (err: unknown) => {
    log.error({ err }, `${kind} kept from stopping the server`);
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
