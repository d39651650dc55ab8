/** The admin module's only door: access requests and their emails. */
import type { Db } from '../../db/database.ts';
import type { Module } from '../module.ts';
import { createAdminRepository } from './repository.ts';
import { adminRoutes } from './routes.ts';
import { createAdminService, type AdminService } from './service.ts';

export type { AdminService } from './service.ts';
export { ACCESS_REQUEST_LIMIT, usernameFrom } from './service.ts';

export function createAdminModule(
  deps: { db: Db } & Omit<Parameters<typeof createAdminService>[0], 'admin'>,
): Module & { service: AdminService } {
  const service = createAdminService({ admin: createAdminRepository(deps.db), ...deps });
  return {
    name: 'admin',
    routes: adminRoutes({ admin: service }),
    jobs: [],
    tasks: {},
    service,
  };
}
