import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import type { SystemService } from './service.ts';

export function systemRoutes(deps: {
  system: SystemService;
  openapi: () => Record<string, unknown>;
}) {
  return [
    route(API.config, async ({ reply }) => {
      reply.header('cache-control', 'no-cache');
      return deps.system.config();
    }),
    route(API.openapi, async () => deps.openapi()),
  ];
}
