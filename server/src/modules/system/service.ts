/** What the web app and clients need to know about this server, and whether it can serve. */
import type { Readiness, ServerConfig } from '@upshot/contract';
import { NotReadyError } from '../../errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { within } from '../../lib/within.ts';
import type { Storage } from '../../storage/storage.ts';
import type { SystemRepository } from './repository.ts';

/** How long each part has to answer the readiness probe. */
export const READY_TIMEOUT_MS = 3000;

export function createSystemService(deps: {
  config: ServerConfig;
  repository: SystemRepository;
  storage: Storage;
}) {
  const config: ServerConfig = { ...deps.config };
  return {
    config: () => config,

    /**
     * Both parts answered in time, or NotReadyError naming those that did not; why they did
     * not goes to log (the probe's request logger, so the line carries its request id).
     */
    async ready(log: Logger): Promise<Readiness> {
      const checks = [
        ['database', () => deps.repository.ping()],
        ['storage', () => deps.storage.check()],
      ] as const;
      const results = await Promise.allSettled(
        checks.map(([, check]) => within(check(), READY_TIMEOUT_MS)),
      );
      const failed = checks.flatMap(([part], i) => {
        const result = results[i];
        if (result?.status !== 'rejected') return [];
        const reason: unknown = result.reason;
        return [{ part, reason: reason instanceof Error ? reason.message : String(reason) }];
      });
      if (failed.length > 0) {
        log.warn({ failed }, 'not ready');
        throw new NotReadyError(
          `Not ready: ${failed.map((f) => f.part).join(' and ')} not reachable`,
        );
      }
      return { status: 'ok', database: 'ok', storage: 'ok' };
    },
  };
}

export type SystemService = ReturnType<typeof createSystemService>;
