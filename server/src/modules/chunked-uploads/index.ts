/** The chunked-uploads module's only door: resumable uploads of large files. */
import type { Logger } from '../../lib/logger.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Storage } from '../../storage/storage.ts';
import type { Module } from '../module.ts';
import type { UploadPresenter, UploadsService } from '../uploads/index.ts';
import { createChunkedUploadsRepository } from './repository.ts';
import { chunkedUploadsRoutes } from './routes.ts';
import { createChunkedUploadsService, type ChunkedUploadsService } from './service.ts';

export {
  COMPLETION_STALE_MS,
  PART_HEARTBEAT_MS,
  PART_STALE_MS,
  SESSION_TTL_MS,
  type ChunkedUploadsService,
} from './service.ts';

export function createChunkedUploadsModule(deps: {
  db: Db;
  uploads: UploadsService;
  storage: Storage;
  clock: Clock;
  present: UploadPresenter;
  maxUploadBytes: number;
  chunkSize: number;
  log: Logger;
}): Module & { service: ChunkedUploadsService } {
  const service = createChunkedUploadsService({
    sessions: createChunkedUploadsRepository(deps.db),
    uploads: deps.uploads,
    storage: deps.storage,
    clock: deps.clock,
    maxUploadBytes: deps.maxUploadBytes,
    chunkSize: deps.chunkSize,
    onError: (err, context) =>
      deps.log.error({ err, ...context }, 'chunked upload bookkeeping failed'),
  });
  return {
    name: 'chunked-uploads',
    routes: chunkedUploadsRoutes({ chunked: service, present: deps.present }),
    jobs: [
      {
        name: 'chunked-upload-expiry',
        intervalMs: 10 * 60 * 1000,
        run: () => service.sweepExpired(),
      },
    ],
    tasks: {},
    service,
  };
}
