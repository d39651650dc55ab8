/** The system module's only door: facts about this server and its API reference. */
import type { Module } from '../module.ts';
import { systemRoutes } from './routes.ts';
import { createSystemService, type SystemService } from './service.ts';

export function createSystemModule(deps: {
  config: Parameters<typeof createSystemService>[0];
  /** The OpenAPI document, available once every route is registered. */
  openapi: () => Record<string, unknown>;
}): Module & { service: SystemService } {
  const service = createSystemService(deps.config);
  return {
    name: 'system',
    routes: systemRoutes({ system: service, openapi: deps.openapi }),
    jobs: [],
    tasks: {},
    service,
  };
}
