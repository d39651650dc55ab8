/** The users module's only door. */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Keys } from '../../lib/crypto.ts';
import type { AuditService } from '../audit/index.ts';
import type { Module } from '../module.ts';
import { createUsersRepository } from './repository.ts';
import { usersRoutes } from './routes.ts';
import { createUsersService, type UsersService } from './service.ts';

export { toAdminUser, toUserResponse } from './presenter.ts';
export type { UserChanges, UserFilter, UsersQueries } from './repository.ts';
export type { AuthUser, NewUser, UsersService, Viewer } from './service.ts';

export function createUsersModule(deps: {
  db: Db;
  keys: Keys;
  clock: Clock;
  defaultQuotaBytes: number;
  audit: AuditService;
}): Module & { service: UsersService } {
  const service = createUsersService({ users: createUsersRepository(deps.db), ...deps });
  return {
    name: 'users',
    routes: usersRoutes({ users: service, audit: deps.audit }),
    jobs: [],
    tasks: {},
    service,
  };
}
