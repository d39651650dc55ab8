/** The auth module's only door. */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Module } from '../module.ts';
import type { UsersService } from '../users/index.ts';
import { createAuthRepository } from './repository.ts';
import { authRoutes } from './routes.ts';
import { createAuthService, type AuthService } from './service.ts';

export type { Auth, AuthService } from './service.ts';
export {
  LIMITED_ACCOUNT_DELAY_MS,
  LIMITED_ACCOUNT_LANE_MS,
  LOGIN_LIMIT,
  SESSION_TTL_MS,
} from './service.ts';

export function createAuthModule(deps: {
  db: Db;
  users: UsersService;
  clock: Clock;
  sleep?: (ms: number) => Promise<void>;
}): Module & { service: AuthService } {
  const service = createAuthService({
    auth: createAuthRepository(deps.db),
    users: deps.users,
    clock: deps.clock,
    sleep: deps.sleep,
  });
  return {
    name: 'auth',
    routes: authRoutes({ auth: service, users: deps.users }),
    jobs: [{ name: 'auth-sweep', intervalMs: 60 * 60 * 1000, run: () => service.sweep() }],
    tasks: {},
    service,
  };
}
