/**
 * Reclaims what nothing points at: stored objects (files and thumbnails) with no row, left by
 * a crash between writing bytes and their row, by a delete between a row and its bytes, or by a
 * thumbnail made while its upload was deleted; multipart uploads whose session is gone (on
 * local disk; an S3 bucket's lifecycle rule aborts them there); and temporary files of uploads
 * cut off by a crash. Only what is older than a grace period, so work in flight is never touched.
 */
import type { Logger } from '../../lib/logger.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Storage } from '../../storage/storage.ts';
import type { UploadsRepository } from './repository.ts';

const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export type OrphanSweep = { objects: string[]; multiparts: string[]; temporary: string[] };
export type OrphanSweeper = ReturnType<typeof createOrphanSweeper>;

export function createOrphanSweeper(deps: {
  uploads: UploadsRepository;
  storage: Storage;
  clock: Clock;
  log: Logger;
}) {
  const { uploads, storage, clock, log } = deps;

  return {
    async sweep(graceMs = ORPHAN_GRACE_MS): Promise<OrphanSweep> {
      const cutoff = new Date(clock.now().getTime() - graceMs);
      const removed: OrphanSweep = { objects: [], multiparts: [], temporary: [] };

      let batch: string[] = [];
      const flush = async () => {
        const used = await uploads.referencedKeys(batch);
        for (const key of batch) {
          if (used.has(key)) continue;
          await storage.delete(key);
          removed.objects.push(key);
        }
        batch = [];
      };
      for await (const { key, modifiedAt } of storage.list()) {
        if (modifiedAt > cutoff) continue;
        batch.push(key);
        if (batch.length >= 500) await flush();
      }
      await flush();

      removed.multiparts = await storage.removeAbandonedMultipart(
        cutoff,
        await uploads.multipartIdsInUse(),
      );

      removed.temporary = await storage.removeTemporary(cutoff);

      const total = removed.objects.length + removed.multiparts.length + removed.temporary.length;
      if (total > 0) log.info(removed, 'removed orphaned bytes');
      return removed;
    },
  };
}
