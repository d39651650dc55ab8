/** The uploads module's only door: uploads, their vanity URLs, thumbnails and orphaned bytes. */
import type { Logger } from '../../lib/logger.ts';
import type { Db } from '../../db/database.ts';
import type { UploadSearch } from '../../db/search.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FileHasher } from '../../lib/file-hasher.ts';
import type { Storage } from '../../storage/storage.ts';
import type { AuditService } from '../audit/index.ts';
import type { Module } from '../module.ts';
import { VIEW_GRANT_TTL_MS, type LinkUrls } from '../links/index.ts';
import type { UploadDefaults } from '../preferences/index.ts';
import { createUploadPresenter, type UploadPresenter } from './presenter.ts';
import { createOrphanSweeper, type OrphanSweeper } from './orphans.ts';
import { createUploadsRepository } from './repository.ts';
import { uploadsRoutes } from './routes.ts';
import { createUploadsService, type UploadsService } from './service.ts';
import { createThumbnailer } from './thumbnails.ts';

export { type UploadPresenter } from './presenter.ts';
export { ffmpegAvailable, ffprobeBeside } from './thumbnails.ts';
export type { UploadsService } from './service.ts';
export { linkColumns, type LinkAsk, type LinkColumns } from './link-settings.ts';
export { intakeStored, type StrippedCopy } from './intake.ts';

export function createUploadsModule(deps: {
  db: Db;
  search: UploadSearch;
  storage: Storage;
  clock: Clock;
  urls: LinkUrls;
  fileHasher: FileHasher;
  /** The ffmpeg and ffprobe commands for video thumbnails; null: none. */
  video: { ffmpeg: string; ffprobe: string } | null;
  kickTasks: () => void;
  /** What the user's uploads get for what they do not say, metadata stripped or not. */
  uploadDefaults: (userId: string) => Promise<UploadDefaults>;
  audit: AuditService;
  log: Logger;
}): Module & {
  service: UploadsService;
  present: UploadPresenter;
  sweepOrphans: OrphanSweeper['sweep'];
} {
  const { db, storage, clock, log } = deps;
  const repository = createUploadsRepository(db, deps.search);
  const thumbnails = createThumbnailer({
    storage,
    uploads: repository,
    video: deps.video,
    log,
  });
  const service = createUploadsService({
    uploads: repository,
    storage,
    clock,
    fileHasher: deps.fileHasher,
    urls: deps.urls,
    thumbnails,
    kickTasks: deps.kickTasks,
    uploadDefaults: deps.uploadDefaults,
    viewGraceMs: VIEW_GRANT_TTL_MS,
    audit: deps.audit,
    onError: (err, context) => log.error({ err, ...context }, 'upload bookkeeping failed'),
  });
  const orphans = createOrphanSweeper({ uploads: repository, storage, clock, log });
  const present = createUploadPresenter({ tagsOf: repository.tagsOf, urls: deps.urls, clock });
  return {
    name: 'uploads',
    routes: uploadsRoutes({ uploads: service, present }),
    jobs: [
      { name: 'orphaned-bytes', intervalMs: 6 * 60 * 60 * 1000, run: () => orphans.sweep() },
      { name: 'dead-links', intervalMs: 60 * 1000, run: () => service.sweepDeadLinks() },
    ],
    tasks: service.tasks,
    service,
    present,
    sweepOrphans: orphans.sweep,
  };
}
