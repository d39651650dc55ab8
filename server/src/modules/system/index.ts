/** The system module's only door: facts about this server, its health and its metrics. */
import type { Db } from '../../db/database.ts';
import type { Metrics } from '../../plugins/metrics.ts';
import type { Storage } from '../../storage/storage.ts';
import type { Module } from '../module.ts';
import { createSystemRepository } from './repository.ts';
import { systemRoutes } from './routes.ts';
import { createSystemService, type SystemService } from './service.ts';

export function createSystemModule(deps: {
  config: Parameters<typeof createSystemService>[0]['config'];
  db: Db;
  storage: Storage;
  /** The OpenAPI document, available once every route is registered. */
  openapi: () => Record<string, unknown>;
  metrics: { metrics: Metrics; token: string } | null;
}): Module & { service: SystemService } {
  const { metrics } = deps;
  const service = createSystemService({
    config: deps.config,
    repository: createSystemRepository(deps.db),
    storage: deps.storage,
    metrics: metrics && {
      token: metrics.token,
      contentType: metrics.metrics.registry.contentType,
      text: () => metrics.metrics.registry.metrics(),
    },
  });
  return {
    name: 'system',
    routes: systemRoutes({ system: service, openapi: deps.openapi }),
    jobs: [],
    tasks: {},
    service,
  };
}
