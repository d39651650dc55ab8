/**
 * The users module's only door. Sign-in reads users, and managing them needs sign-in, so the
 * users service comes first (createAccounts) and the module, with the management, later.
 */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Keys } from '../../lib/crypto.ts';
import type { AuditService } from '../audit/index.ts';
import type { Module } from '../module.ts';
import { createUserManagement, type UserManagement } from './management.ts';
import { createUsersRepository } from './repository.ts';
import { usersRoutes } from './routes.ts';
import { createUsersService, type UsersService } from './service.ts';

export { toAdminUser, toUserResponse } from './presenter.ts';
export type { Credentials, UserManagement } from './management.ts';
export type { UsersService } from './service.ts';

/** The users service: what sign-in, uploaders and access requests read of users. */
export function createAccounts(deps: {
  db: Db;
  audit: AuditService;
  keys: Keys;
  clock: Clock;
  defaultQuotaBytes: number;
}): UsersService {
  return createUsersService({ users: createUsersRepository(deps.db), ...deps });
}

export function createUsersModule(
  deps: Parameters<typeof createUserManagement>[0],
): Module & { service: UsersService; management: UserManagement } {
  const management = createUserManagement(deps);
  return {
    name: 'users',
    routes: usersRoutes({ users: deps.users, management }),
    jobs: [],
    tasks: {},
    service: deps.users,
    management,
  };
}
