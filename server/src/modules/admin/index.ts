/** The admin module's only door: managing users, access requests and their emails. */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { AuditService } from '../audit/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { ChunkedUploadsService } from '../chunked-uploads/index.ts';
import type { Module } from '../module.ts';
import type { PreferencesService } from '../preferences/index.ts';
import type { UploadsService } from '../uploads/index.ts';
import type { UsersService } from '../users/index.ts';
import { createAdminRepository } from './repository.ts';
import { adminRoutes } from './routes.ts';
import { createAdminService, type AdminService } from './service.ts';

export type { AdminService } from './service.ts';
export { ACCESS_REQUEST_LIMIT, usernameFrom } from './service.ts';

export function createAdminModule(deps: {
  db: Db;
  audit: AuditService;
  users: UsersService;
  auth: AuthService;
  preferences: PreferencesService;
  uploads: UploadsService;
  chunked: ChunkedUploadsService;
  mailer: Mailer;
  clock: Clock;
  publicUrl: string;
  log: Logger;
}): Module & { service: AdminService } {
  const service = createAdminService({ admin: createAdminRepository(deps.db), ...deps });
  return {
    name: 'admin',
    routes: adminRoutes({ admin: service, users: deps.users }),
    jobs: [],
    tasks: {},
    service,
  };
}
