import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import type { SystemService } from './service.ts';

export function systemRoutes(deps: {
  system: SystemService;
  openapi: () => Record<string, unknown>;
}) {
  const { system } = deps;
  return [
    route(API.config, async ({ reply }) => {
      reply.header('cache-control', 'no-cache');
      return system.config();
    }),
    route(API.openapi, async () => deps.openapi()),

    route(API.health, async ({ reply }) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    }),
    route(API.healthReady, async ({ request, reply }) => {
      reply.header('cache-control', 'no-store');
      return system.ready(request.log);
    }),

    route(API.metrics, async ({ request, reply }) => {
      const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const { contentType, text } = await system.metrics(bearer);
      return reply.header('cache-control', 'no-store').type(contentType).send(text);
    }),
  ];
}
