/**
 * Reclaims bytes that no record points at: objects left by a crash between writing bytes and
 * inserting their row, or between deleting a row and its bytes, and multipart uploads whose
 * session is gone. Only what is older than a grace period, so work in flight is never touched.
 */
import type { Clock } from '../../lib/clock.ts';
import type { Storage } from '../../storage/storage.ts';
import type { ChunkedUploadsRepository } from '../chunked-uploads/repository.ts';
import type { UploadsRepository } from './repository.ts';

export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export function createStorageSweeper(deps: {
  uploads: UploadsRepository;
  sessions: ChunkedUploadsRepository;
  storage: Storage;
  clock: Clock;
}) {
  const { uploads, sessions, storage, clock } = deps;

  return {
    async sweep(graceMs = ORPHAN_GRACE_MS): Promise<{ objects: number; multiparts: number }> {
      const cutoff = clock.now().getTime() - graceMs;
      let objects = 0;
      let batch: string[] = [];
      const flush = async () => {
        const used = await uploads.referencedKeys(batch);
        for (const key of batch) {
          if (!used.has(key)) {
            await storage.delete(key);
            objects += 1;
          }
        }
        batch = [];
      };
      for await (const { key, modifiedAt } of storage.list()) {
        if (modifiedAt.getTime() > cutoff) continue;
        batch.push(key);
        if (batch.length >= 500) await flush();
      }
      await flush();

      let multiparts = 0;
      const live = await sessions.multipartIds();
      for await (const { multipartId, modifiedAt } of storage.listMultipart()) {
        if (modifiedAt.getTime() > cutoff || live.has(multipartId)) continue;
        await storage.abortMultipart(multipartId, '');
        multiparts += 1;
      }
      return { objects, multiparts };
    },
  };
}
