/** The serving module's only door: the share links. */
import type { Storage } from '../../storage/storage.ts';
import type { Module } from '../module.ts';
import type { UploadsService } from '../uploads/index.ts';
import { servingRoutes } from './routes.ts';
import { createServingService, PRESIGNED_SECONDS, type ServingService } from './service.ts';

export { FILE_CSP } from './content-policy.ts';

export function createServingModule(deps: {
  uploads: UploadsService;
  storage: Storage;
  /** S3_SERVE=presigned: answer file GETs with a redirect to the store. */
  presigned?: boolean;
}): Module & { service: ServingService } {
  const service = createServingService({
    uploads: deps.uploads,
    storage: deps.storage,
    presignedSeconds: deps.presigned ? PRESIGNED_SECONDS : null,
  });
  return {
    name: 'serving',
    routes: servingRoutes({ serving: service }),
    jobs: [],
    tasks: {},
    service,
  };
}
