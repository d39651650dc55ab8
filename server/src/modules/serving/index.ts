/** The serving module's only door: the share links. */
import type { Logger } from '../../lib/logger.ts';
import type { Storage } from '../../storage/storage.ts';
import type { Module } from '../module.ts';
import type { UploadsService } from '../uploads/index.ts';
import { servingRoutes } from './routes.ts';
import { createServingService, type ServingService } from './service.ts';

export { FILE_CSP } from './content-policy.ts';

export function createServingModule(deps: {
  uploads: UploadsService;
  storage: Storage;
  log: Logger;
}): Module & { service: ServingService } {
  const service = createServingService({
    uploads: deps.uploads,
    storage: deps.storage,
    onError: (err, context) => deps.log.error({ err, ...context }, 'serving failed'),
  });
  return {
    name: 'serving',
    routes: servingRoutes({ serving: service }),
    jobs: [],
    tasks: {},
    service,
  };
}
