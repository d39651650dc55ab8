/** The access-requests module's only door: access requests and their emails. */
import type { Db } from '../../db/database.ts';
import type { Module } from '../module.ts';
import { createAccessRequestsRepository } from './repository.ts';
import { accessRequestsRoutes } from './routes.ts';
import { createAccessRequestsService, type AccessRequestsService } from './service.ts';

export type { AccessRequestsService } from './service.ts';
export { ACCESS_REQUEST_LIMIT, usernameFrom } from './service.ts';

export function createAccessRequestsModule(
  deps: { db: Db } & Omit<Parameters<typeof createAccessRequestsService>[0], 'requests'>,
): Module & { service: AccessRequestsService } {
  const service = createAccessRequestsService({
    requests: createAccessRequestsRepository(deps.db),
    ...deps,
  });
  return {
    name: 'access-requests',
    routes: accessRequestsRoutes({ requests: service }),
    jobs: [],
    tasks: {},
    service,
  };
}
