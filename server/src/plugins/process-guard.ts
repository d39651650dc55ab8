/**
 * The process's last line of defence, as Node's documentation has it: after an uncaught
 * exception the process's state is unknown, so the error is logged, with the id of the request
 * it escaped from, and the server shuts down as on SIGTERM (draining within the shutdown
 * timeout) and exits non-zero, for its supervisor to start it again. An unhandled rejection is
 * logged the same way, and the process goes on.
 */
import type { Logger } from '../lib/logger.ts';
import { currentRequestId } from './request-context.ts';

export function installProcessGuard(log: Logger, shutDown: (reason: string) => void): () => void {
  const uncaught = (err: unknown) => {
    log.error({ err, reqId: currentRequestId() }, 'uncaught exception: shutting down');
    shutDown('uncaught exception');
  };
  const unhandled = (err: unknown) => {
    log.error({ err, reqId: currentRequestId() }, 'unhandled rejection');
  };
  process.on('uncaughtException', uncaught);
  process.on('unhandledRejection', unhandled);
  return () => {
    process.off('uncaughtException', uncaught);
    process.off('unhandledRejection', unhandled);
  };
}
