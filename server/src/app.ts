/** Builds the Fastify app from its dependencies: every plugin and module, in one list. */
import fastifyMultipart from '@fastify/multipart';
import { CHUNK_SIZE } from '@upshot/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { dialectOf, type Db } from './db/database.ts';
import { uploadSearch } from './db/search.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { deriveKeys } from './lib/crypto.ts';
import { createFileHasher } from './lib/file-hasher.ts';
import { createAuthRepository } from './modules/auth/repository.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { createAuthService } from './modules/auth/service.ts';
import { createChunkedUploadsRepository } from './modules/chunked-uploads/repository.ts';
import { chunkedUploadsRoutes } from './modules/chunked-uploads/routes.ts';
import { createChunkedUploadsService } from './modules/chunked-uploads/service.ts';
import { servingRoutes } from './modules/serving/routes.ts';
import { createThumbnailer, ffmpegAvailable } from './modules/serving/thumbnails.ts';
import { createLinks } from './modules/uploads/links.ts';
import { createUploadsRepository } from './modules/uploads/repository.ts';
import { uploadsRoutes } from './modules/uploads/routes.ts';
import { createUploadsService } from './modules/uploads/service.ts';
import { createStorageSweeper } from './modules/uploads/sweep.ts';
import { createUsersRepository } from './modules/users/repository.ts';
import { createUsersService } from './modules/users/service.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerErrorHandler } from './plugins/errors.ts';
import { registerWebApp } from './plugins/web-app.ts';
import type { Storage } from './storage/storage.ts';
import { createLocalStorage } from './storage/local.ts';

export type AppDeps = {
  config: Config;
  db: Db;
  secretKey: string;
  clock?: Clock;
  storage?: Storage;
  /** Chunk size of the chunked protocol; only tests make it smaller than CHUNK_SIZE. */
  chunkSize?: number;
};

export type Services = {
  auth: ReturnType<typeof createAuthService>;
  users: ReturnType<typeof createUsersService>;
  uploads: ReturnType<typeof createUploadsService>;
  chunkedUploads: ReturnType<typeof createChunkedUploadsService>;
  storageSweeper: ReturnType<typeof createStorageSweeper>;
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
  const storage = deps.storage ?? createLocalStorage(config.dataDir);

  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    trustProxy: config.trustProxy,
  });

  const usersRepo = createUsersRepository(db);
  const uploadsRepo = createUploadsRepository(db, uploadSearch(dialectOf(db)));
  const sessionsRepo = createChunkedUploadsRepository(db);
  const links = createLinks({ publicUrl: config.publicUrl, signingKey: keys.signing });

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
  const fileHasher = createFileHasher();
  const uploadsService = createUploadsService({
    uploads: uploadsRepo,
    storage,
    clock,
    fileHasher,
  });
  const chunkedService = createChunkedUploadsService({
    sessions: sessionsRepo,
    uploads: uploadsRepo,
    uploadsService,
    storage,
    clock,
    maxUploadBytes: config.maxUploadBytes,
    chunkSize: deps.chunkSize ?? CHUNK_SIZE,
  });
  const thumbnails = createThumbnailer({
    storage,
    uploads: uploadsRepo,
    ffmpeg: config.ffmpegPath && ffmpegAvailable(config.ffmpegPath) ? config.ffmpegPath : null,
    log: app.log,
  });
  const storageSweeper = createStorageSweeper({
    uploads: uploadsRepo,
    sessions: sessionsRepo,
    storage,
    clock,
  });

  app.addHook('onClose', () => fileHasher.close());
  registerErrorHandler(app);
  registerAuth(app, authService);
  await app.register(fastifyMultipart, { limits: { files: 1, fields: 10, fieldSize: 1024 } });

  authRoutes(app, { authService });
  uploadsRoutes(app, { uploadsService, links, clock });
  chunkedUploadsRoutes(app, { chunked: chunkedService, links, clock });

  await registerWebApp(app, config.webDistDir);
  servingRoutes(app, { uploads: uploadsRepo, storage, links, thumbnails, clock });

  app.decorate('services', {
    auth: authService,
    users: usersService,
    uploads: uploadsService,
    chunkedUploads: chunkedService,
    storageSweeper,
  });
  return app;
}
