/**
 * What the web app and clients need to know about this server, whether it can serve, and its
 * metrics for the scraper holding METRICS_TOKEN.
 */
import crypto from 'node:crypto';
import type { Readiness, ServerConfig } from '@upshot/contract';
import { NotFoundError, NotReadyError, UnauthorizedError } from '../../errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { within } from '../../lib/within.ts';
import type { Storage } from '../../storage/storage.ts';
import type { SystemRepository } from './repository.ts';

/** How long each part has to answer the readiness probe. */
export const READY_TIMEOUT_MS = 3000;

/** The metrics in Prometheus's text format, and the token that opens them. */
export type MetricsSource = { token: string; contentType: string; text: () => Promise<string> };

/** Compares in constant time (lengths aside), so the token cannot be guessed byte by byte. */
function sameToken(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export function createSystemService(deps: {
  config: ServerConfig;
  repository: SystemRepository;
  storage: Storage;
  /** null: metrics are off (no METRICS_TOKEN). */
  metrics: MetricsSource | null;
}) {
  const config: ServerConfig = { ...deps.config };
  return {
    config: () => config,

    /** The metrics, for the bearer of METRICS_TOKEN only; a 404 while they are off. */
    async metrics(bearer: string | undefined): Promise<{ contentType: string; text: string }> {
      const { metrics } = deps;
      if (!metrics) throw new NotFoundError('Metrics are off: set METRICS_TOKEN');
      if (!bearer || !sameToken(bearer, metrics.token)) {
        throw new UnauthorizedError(
          'Metrics need Authorization: Bearer <METRICS_TOKEN>',
          'Bearer realm="metrics"',
        );
      }
      return { contentType: metrics.contentType, text: await metrics.text() };
    },

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
