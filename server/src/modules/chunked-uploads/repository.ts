/**
 * Every SQL query on chunked-upload sessions and their parts. A part is claimed before its
 * bytes are written, and completion is claimed before the parts are joined, both by conditional
 * updates of the session row, so a chunk and a completion can never run on one session at once.
 * A session holds its charge of its owner's quota from its start (`reserved`, summed in
 * users.disk_reserved): given back in the transaction that deletes it unfinished, turned into
 * the upload's charge by the one that inserts the upload (uploads' insertCharged). Locks: the
 * session's row, then its owner's.
 */
import type { Db, Executor } from '../../db/database.ts';
import type { ExpressionBuilder } from 'kysely';
import type { ChunkedUploadPartRow, ChunkedUploadRow, Database } from '../../db/schema.ts';
import type { StoredPart } from '../../storage/storage.ts';

export type ChunkedUploadsRepository = ReturnType<typeof createChunkedUploadsRepository>;

export type PartClaim = 'claimed' | 'session-closed' | 'part-busy';

/** Not a completion in progress: no claim, or one not renewed since claimStaleBefore. */
function sweepable(claimStaleBefore: string) {
  return (eb: ExpressionBuilder<Database, 'chunked_uploads'>) =>
    eb.or([
      eb('status', '!=', 'completing'),
      eb('claimed_at', 'is', null),
      eb('claimed_at', '<', claimStaleBefore),
    ]);
}

/** Gives the quota held by sessions just deleted back to their owners. */
async function release(
  trx: Executor,
  deleted: { user_id: string; reserved: number | string }[],
): Promise<void> {
  for (const { user_id, reserved } of deleted) {
    if (Number(reserved) <= 0) continue;
    await trx
      .updateTable('users')
      .set((eb) => ({ disk_reserved: eb('disk_reserved', '-', Number(reserved)) }))
      .where('id', '=', user_id)
      .execute();
  }
}

export function createChunkedUploadsRepository(db: Db) {
  /** Deletes the sessions the query selects, and gives back what they held, in one transaction. */
  const deleteReleasing = (
    remove: (
      trx: Executor,
    ) => Promise<{ user_id: string; reserved: number | string; status: string }[]>,
  ) =>
    db.transaction().execute(async (trx) => {
      const deleted = await remove(trx);
      await release(trx, deleted);
      return deleted;
    });

  return {
    /**
     * Opens the session, reserving `reserved` bytes of its owner's quota, in one transaction;
     * 'quota' (nothing written) when they do not fit beside what is used and reserved.
     */
    async insert(
      row: Omit<ChunkedUploadRow, 'status' | 'claim' | 'claimed_at' | 'upload_id' | 'reserved'>,
      reserved: number,
    ): Promise<'inserted' | 'quota'> {
      return db.transaction().execute(async (trx) => {
        const held = await trx
          .updateTable('users')
          .set((eb) => ({ disk_reserved: eb('disk_reserved', '+', reserved) }))
          .where('id', '=', row.user_id)
          .where((eb) =>
            eb(
              eb(eb('disk_used', '+', eb.ref('disk_reserved')), '+', reserved),
              '<=',
              eb.ref('disk_quota'),
            ),
          )
          .executeTakeFirst();
        if (Number(held.numUpdatedRows) !== 1) return 'quota';
        await trx
          .insertInto('chunked_uploads')
          .values({ ...row, reserved })
          .execute();
        return 'inserted';
      });
    },

    /** A user's sessions that still own their bytes (not completed). */
    unfinishedOf(
      userId: string,
    ): Promise<Pick<ChunkedUploadRow, 'multipart_id' | 'storage_key'>[]> {
      return db
        .selectFrom('chunked_uploads')
        .select(['multipart_id', 'storage_key'])
        .where('user_id', '=', userId)
        .where('status', '!=', 'completed')
        .execute();
    },

    /** Sessions not yet completed, of every user (the metrics' gauge). */
    async countOpen(): Promise<number> {
      const row = await db
        .selectFrom('chunked_uploads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '!=', 'completed')
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    find(id: string): Promise<ChunkedUploadRow | undefined> {
      return db.selectFrom('chunked_uploads').selectAll().where('id', '=', id).executeTakeFirst();
    },

    parts(id: string): Promise<ChunkedUploadPartRow[]> {
      return db
        .selectFrom('chunked_upload_parts')
        .selectAll()
        .where('upload_id', '=', id)
        .orderBy('chunk_index')
        .execute();
    },

    /** The stored parts, as the store is given them back to join them. */
    async storedParts(id: string): Promise<StoredPart[]> {
      const rows = await db
        .selectFrom('chunked_upload_parts')
        .select(['chunk_index', 'size', 'etag'])
        .where('upload_id', '=', id)
        .where('state', '=', 'stored')
        .orderBy('chunk_index')
        .execute();
      return rows.map((r) => ({
        index: Number(r.chunk_index),
        size: Number(r.size),
        etag: r.etag ?? '',
      }));
    },

    async storedIndexes(id: string): Promise<number[]> {
      const rows = await db
        .selectFrom('chunked_upload_parts')
        .select('chunk_index')
        .where('upload_id', '=', id)
        .where('state', '=', 'stored')
        .orderBy('chunk_index')
        .execute();
      return rows.map((r) => Number(r.chunk_index));
    },

    /**
     * Claims part `index` for one writer before its bytes are written: refused when the
     * session is no longer open, or when another writer holds the part and was alive after
     * `staleBefore`. The session row is updated first, so a completion claiming the same row
     * waits for this transaction, or this one for it.
     */
    async claimPart(input: {
      uploadId: string;
      index: number;
      size: number;
      writer: string;
      now: string;
      staleBefore: string;
    }): Promise<PartClaim> {
      return db.transaction().execute(async (trx) => {
        const open = await trx
          .updateTable('chunked_uploads')
          .set((eb) => ({ status: eb.ref('status') }))
          .where('id', '=', input.uploadId)
          .where('status', '=', 'open')
          .executeTakeFirst();
        if (Number(open.numUpdatedRows) !== 1) return 'session-closed';
        const current = await trx
          .selectFrom('chunked_upload_parts')
          .select(['state', 'alive_at'])
          .where('upload_id', '=', input.uploadId)
          .where('chunk_index', '=', input.index)
          .executeTakeFirst();
        if (current?.state === 'writing' && (current.alive_at ?? '') > input.staleBefore) {
          return 'part-busy';
        }
        await trx
          .insertInto('chunked_upload_parts')
          .values({
            upload_id: input.uploadId,
            chunk_index: input.index,
            size: input.size,
            received_at: input.now,
            state: 'writing',
            writer: input.writer,
            alive_at: input.now,
            etag: null,
          })
          .onConflict((oc) =>
            oc.columns(['upload_id', 'chunk_index']).doUpdateSet({
              size: input.size,
              received_at: input.now,
              state: 'writing',
              writer: input.writer,
              alive_at: input.now,
              etag: null,
            }),
          )
          .execute();
        return 'claimed';
      });
    },

    /** The writer is still at it; false when it no longer holds the part. */
    async touchPart(uploadId: string, index: number, writer: string, now: string) {
      const res = await db
        .updateTable('chunked_upload_parts')
        .set({ alive_at: now })
        .where('upload_id', '=', uploadId)
        .where('chunk_index', '=', index)
        .where('writer', '=', writer)
        .where('state', '=', 'writing')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** The part's bytes are durable, under `etag`; false when the writer no longer held it. */
    async storePart(uploadId: string, index: number, writer: string, now: string, etag: string) {
      const res = await db
        .updateTable('chunked_upload_parts')
        .set({ state: 'stored', writer: null, alive_at: null, received_at: now, etag })
        .where('upload_id', '=', uploadId)
        .where('chunk_index', '=', index)
        .where('writer', '=', writer)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** A write failed: the part is not stored (unless another writer holds it now). */
    async releasePart(uploadId: string, index: number, writer: string): Promise<void> {
      await db
        .deleteFrom('chunked_upload_parts')
        .where('upload_id', '=', uploadId)
        .where('chunk_index', '=', index)
        .where('writer', '=', writer)
        .execute();
    },

    /**
     * open -> completing for one request (its claim token), or takes over a completion whose
     * claimant has not shown it is alive since staleBefore (it crashed). False otherwise, and
     * for an open session that has expired since the request found it (the sweep's to remove).
     */
    async claimCompletion(id: string, claim: string, now: string, staleBefore: string) {
      const res = await db
        .updateTable('chunked_uploads')
        .set({ status: 'completing', claim, claimed_at: now })
        .where('id', '=', id)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'open'), eb('expires_at', '>', now)]),
            eb.and([eb('status', '=', 'completing'), eb('claimed_at', '<', staleBefore)]),
          ]),
        )
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async touchCompletion(id: string, claim: string, now: string): Promise<void> {
      await db
        .updateTable('chunked_uploads')
        .set({ claimed_at: now })
        .where('id', '=', id)
        .where('claim', '=', claim)
        .execute();
    },

    /**
     * Gives a claimed completion up once the store may have joined the parts: the session stays
     * completing (it takes no chunk: a part sent to a joined upload would fail), with no claim,
     * and the next completion takes it over at once. A heartbeat of the old claim matches nothing.
     */
    async releaseCompletion(id: string, claim: string): Promise<void> {
      await db
        .updateTable('chunked_uploads')
        .set({ claim: null, claimed_at: new Date(0).toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'completing')
        .where('claim', '=', claim)
        .execute();
    },

    /** Gives a claimed completion up before the parts were joined: the session is open again. */
    async reopen(id: string, claim: string): Promise<void> {
      await db
        .updateTable('chunked_uploads')
        .set({ status: 'open', claim: null, claimed_at: null })
        .where('id', '=', id)
        .where('claim', '=', claim)
        .execute();
    },

    /** The session made its upload; its parts are no longer needed. */
    async markCompleted(id: string, claim: string, uploadId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const res = await trx
          .updateTable('chunked_uploads')
          .set({ status: 'completed', upload_id: uploadId, claim: null })
          .where('id', '=', id)
          .where('claim', '=', claim)
          .executeTakeFirst();
        // A request that took the claim over still needs them to pass its checks.
        if (Number(res.numUpdatedRows) !== 1) return;
        await trx.deleteFrom('chunked_upload_parts').where('upload_id', '=', id).execute();
      });
    },

    /** The session's upload exists already (made under a lost claim): the session is done. */
    async markMade(id: string, uploadId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('chunked_uploads')
          .set({ status: 'completed', upload_id: uploadId, claim: null })
          .where('id', '=', id)
          .execute();
        await trx.deleteFrom('chunked_upload_parts').where('upload_id', '=', id).execute();
      });
    },

    async delete(id: string): Promise<void> {
      await deleteReleasing((trx) =>
        trx
          .deleteFrom('chunked_uploads')
          .where('id', '=', id)
          .returning(['user_id', 'reserved', 'status'])
          .execute(),
      );
    },

    /**
     * Deletes the session if it is open, or completing under a claim given up or not renewed
     * since claimStaleBefore (its completion failed or died); false when a completion is under
     * way or done.
     */
    async deleteAbortable(id: string, claimStaleBefore: string): Promise<boolean> {
      const deleted = await deleteReleasing((trx) =>
        trx
          .deleteFrom('chunked_uploads')
          .where('id', '=', id)
          .where('status', '!=', 'completed')
          .where(sweepable(claimStaleBefore))
          .returning(['user_id', 'reserved', 'status'])
          .execute(),
      );
      return deleted.length === 1;
    },

    /** Deletes the session while this completion's claim holds it; false when it does not. */
    async deleteClaimed(id: string, claim: string): Promise<boolean> {
      const deleted = await deleteReleasing((trx) =>
        trx
          .deleteFrom('chunked_uploads')
          .where('id', '=', id)
          .where('status', '=', 'completing')
          .where('claim', '=', claim)
          .returning(['user_id', 'reserved', 'status'])
          .execute(),
      );
      return deleted.length === 1;
    },

    /** Expired sessions, but none whose completion claim is fresher than claimStaleBefore. */
    expired(now: string, claimStaleBefore: string, limit: number): Promise<ChunkedUploadRow[]> {
      return db
        .selectFrom('chunked_uploads')
        .selectAll()
        .where('expires_at', '<=', now)
        .where(sweepable(claimStaleBefore))
        .limit(limit)
        .execute();
    },

    /**
     * Deletes one session found by expired() if it still may be swept (a completion may have
     * claimed it since it was read): its status as it was deleted, or null when it was spared.
     */
    async deleteExpired(id: string, claimStaleBefore: string): Promise<{ status: string } | null> {
      const [row] = await deleteReleasing((trx) =>
        trx
          .deleteFrom('chunked_uploads')
          .where('id', '=', id)
          .where(sweepable(claimStaleBefore))
          .returning(['user_id', 'reserved', 'status'])
          .execute(),
      );
      return row ? { status: row.status } : null;
    },
  };
}
