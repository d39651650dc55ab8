/** Builds the Fastify app from its dependencies: every plugin and module, in one list. */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { deriveKeys } from './lib/crypto.ts';
import { createAuthRepository } from './modules/auth/repository.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { createAuthService } from './modules/auth/service.ts';
import { createUsersRepository } from './modules/users/repository.ts';
import { createUsersService } from './modules/users/service.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerErrorHandler } from './plugins/errors.ts';
import { registerWebApp } from './plugins/web-app.ts';

export type AppDeps = {
  config: Config;
  db: Db;
  secretKey: string;
  clock?: Clock;
};

export type Services = {
  auth: ReturnType<typeof createAuthService>;
  users: ReturnType<typeof createUsersService>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The domain services, for boot-time work (first admin, jobs) and tests. */
    services: Services;
  }
}

export type App = FastifyInstance;

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const keys = deriveKeys(deps.secretKey);

  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    trustProxy: config.trustProxy,
  });

  const usersRepo = createUsersRepository(db);
  const authService = createAuthService({
    auth: createAuthRepository(db),
    users: usersRepo,
    keys,
    clock,
  });
  const usersService = createUsersService({
    users: usersRepo,
    keys,
    clock,
    defaultQuotaBytes: config.defaultQuotaBytes,
  });

  registerErrorHandler(app);
  registerAuth(app, authService);

  authRoutes(app, { authService });

  await registerWebApp(app, config.webDistDir);

  app.decorate('services', { auth: authService, users: usersService });
  return app;
}
