/** The uploads module's only door: uploads, their links, thumbnails and orphaned bytes. */
import type { Logger } from '../../lib/logger.ts';
import type { Db } from '../../db/database.ts';
import type { UploadSearch } from '../../db/search.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FileHasher } from '../../lib/file-hasher.ts';
import type { Storage } from '../../storage/storage.ts';
import type { Module } from '../module.ts';
import type { Links } from './links.ts';
import { createUploadPresenter, type UploadPresenter } from './presenter.ts';
import { createOrphanSweeper, type OrphanSweeper } from './orphans.ts';
import { noLinkCache, type LinkCache } from './link-cache.ts';
import { createUploadsRepository } from './repository.ts';
import { uploadsRoutes } from './routes.ts';
import { createUploadsService, type UploadsService } from './service.ts';
import { createThumbnailer } from './thumbnails.ts';

export { createLinks, type Links } from './links.ts';
export { createLinkCache, noLinkCache, type LinkCache } from './link-cache.ts';
export { type UploadPresenter } from './presenter.ts';
export { ffmpegAvailable } from './thumbnails.ts';
export type { LinkRow } from './repository.ts';
export type { UploadsService } from './service.ts';

export function createUploadsModule(deps: {
  db: Db;
  search: UploadSearch;
  storage: Storage;
  clock: Clock;
  links: Links;
  fileHasher: FileHasher;
  ffmpeg: string | null;
  kickTasks: () => void;
  /** Whether the user's uploads that do not say are public (their preference). */
  defaultPublic: (userId: string) => Promise<boolean>;
  /** The links kept in memory (PostgreSQL); none by default. */
  linkCache?: LinkCache;
  log: Logger;
}): Module & {
  service: UploadsService;
  present: UploadPresenter;
  sweepOrphans: OrphanSweeper['sweep'];
  linkCache: LinkCache;
} {
  const { db, storage, clock, log } = deps;
  const repository = createUploadsRepository(db, deps.search, deps.linkCache);
  const thumbnails = createThumbnailer({
    storage,
    uploads: repository,
    ffmpeg: deps.ffmpeg,
    log,
  });
  const service = createUploadsService({
    uploads: repository,
    storage,
    clock,
    fileHasher: deps.fileHasher,
    links: deps.links,
    thumbnails,
    kickTasks: deps.kickTasks,
    onError: (err, context) => log.error({ err, ...context }, 'upload bookkeeping failed'),
  });
  const orphans = createOrphanSweeper({ uploads: repository, storage, clock, log });
  const present = createUploadPresenter({ tagsOf: repository.tagsOf, links: deps.links, clock });
  return {
    name: 'uploads',
    routes: uploadsRoutes({ uploads: service, present, defaultPublic: deps.defaultPublic }),
    jobs: [{ name: 'orphaned-bytes', intervalMs: 6 * 60 * 60 * 1000, run: () => orphans.sweep() }],
    tasks: service.tasks,
    service,
    present,
    sweepOrphans: orphans.sweep,
    linkCache: deps.linkCache ?? noLinkCache,
  };
}
