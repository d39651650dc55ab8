import crypto from 'node:crypto';
import { API } from '@upshot/contract';
import { NotFoundError, UnauthorizedError } from '../../errors.ts';
import type { Metrics } from '../../plugins/metrics.ts';
import { route } from '../../plugins/route-table.ts';
import type { SystemService } from './service.ts';

/** Compares in constant time (lengths aside), so the token cannot be guessed byte by byte. */
function sameToken(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export function systemRoutes(deps: {
  system: SystemService;
  openapi: () => Record<string, unknown>;
  /** null: metrics are off (no METRICS_TOKEN). */
  metrics: { metrics: Metrics; token: string } | null;
}) {
  return [
    route(API.config, async ({ reply }) => {
      reply.header('cache-control', 'no-cache');
      return deps.system.config();
    }),
    route(API.openapi, async () => deps.openapi()),

    route(API.health, async ({ reply }) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    }),
    route(API.healthReady, async ({ request, reply }) => {
      reply.header('cache-control', 'no-store');
      return deps.system.ready(request.log);
    }),

    route(API.metrics, async ({ request, reply }) => {
      if (!deps.metrics) throw new NotFoundError('Metrics are off: set METRICS_TOKEN');
      const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!bearer || !sameToken(bearer, deps.metrics.token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new UnauthorizedError('Metrics need Authorization: Bearer <METRICS_TOKEN>');
      }
      const { registry } = deps.metrics.metrics;
      const text = await registry.metrics();
      return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
    }),
  ];
}
