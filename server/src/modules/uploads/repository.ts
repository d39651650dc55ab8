/** Every SQL query on uploads, including the quota bookkeeping done in the same transaction. */
import { sql, type Transaction } from 'kysely';
import type { Sort } from '@upshot/contract';
import type { Db } from '../../db/database.ts';
import { MANY_MATCHES, type UploadSearch } from '../../db/search.ts';
import type { Database, NewUploadRow, UploadRow } from '../../db/schema.ts';
import { turnBatcher } from '../../lib/turn-batcher.ts';

export type ListFilter = {
  userId: string;
  search?: string;
  fileType?: string;
  sort: Sort;
  offset: number;
  limit: number;
};

export type UploadsRepository = ReturnType<typeof createUploadsRepository>;

const SORT_ORDER: Record<Sort, ['created_at' | 'size' | 'views', 'asc' | 'desc']> = {
  newest: ['created_at', 'desc'],
  oldest: ['created_at', 'asc'],
  largest: ['size', 'desc'],
  smallest: ['size', 'asc'],
  'most-viewed': ['views', 'desc'],
};

export function createUploadsRepository(db: Db, search: UploadSearch) {
  const addViews = (trx: Db | Transaction<Database>, id: string, n: number) =>
    trx
      .updateTable('uploads')
      .set((eb) => ({ views: eb('views', '+', n) }))
      .where('id', '=', id)
      .execute();
  const countView = turnBatcher<string>(async (ids) => {
    const counts = new Map<string, number>();
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    // In id order, so that batches of several instances lock rows in the same order.
    const ordered = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const addAll = async (trx: Db | Transaction<Database>) => {
      for (const [id, n] of ordered) await addViews(trx, id, n);
    };
    // One statement commits on its own; several share a transaction.
    await (counts.size === 1 ? addAll(db) : db.transaction().execute(addAll));
  });

  return {
    /**
     * Inserts the row and charges its size to the owner in one transaction. Answers
     * 'quota' (and inserts nothing) when the charge would pass the owner's quota.
     */
    async insertCharged(row: NewUploadRow): Promise<UploadRow | 'quota'> {
      return db.transaction().execute(async (trx) => {
        const charged = await trx
          .updateTable('users')
          .set((eb) => ({
            disk_used: eb('disk_used', '+', row.size),
            upload_count: eb('upload_count', '+', 1),
          }))
          .where('id', '=', row.user_id)
          .where((eb) => eb(eb('disk_used', '+', row.size), '<=', eb.ref('disk_quota')))
          .executeTakeFirst();
        if (Number(charged.numUpdatedRows) !== 1) return 'quota';
        return trx.insertInto('uploads').values(row).returningAll().executeTakeFirstOrThrow();
      });
    },

    async remainingQuota(userId: string): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select(['disk_used', 'disk_quota'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      return Math.max(0, Number(row.disk_quota) - Number(row.disk_used));
    },

    findById(id: string): Promise<UploadRow | undefined> {
      return db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
    },

    findByShortCode(code: string): Promise<UploadRow | undefined> {
      return db
        .selectFrom('uploads')
        .selectAll()
        .where('short_code', '=', code.toLowerCase())
        .executeTakeFirst();
    },

    /** A link's path segment: a vanity URL (any case) or a short code; vanity URLs win. */
    async findBySlug(slug: string): Promise<UploadRow | undefined> {
      const lower = slug.toLowerCase();
      // Two index lookups in one statement (an OR across them would scan).
      const rows = await db
        .selectFrom('uploads')
        .selectAll()
        .where(sql<string>`lower(vanity_url)`, '=', lower)
        .unionAll(db.selectFrom('uploads').selectAll().where('short_code', '=', lower))
        .execute();
      return rows.find((r) => r.vanity_url?.toLowerCase() === lower) ?? rows[0];
    },

    /** Whether a slug is already some upload's short code or vanity URL (other than exceptId). */
    async slugTaken(slug: string, exceptId?: string): Promise<boolean> {
      const lower = slug.toLowerCase();
      let q = db
        .selectFrom('uploads')
        .select('id')
        .where((eb) =>
          eb.or([eb('short_code', '=', lower), eb(sql<string>`lower(vanity_url)`, '=', lower)]),
        );
      if (exceptId) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    async setVanity(id: string, vanity: string | null): Promise<UploadRow> {
      return db
        .updateTable('uploads')
        .set({ vanity_url: vanity })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async setThumbnailKey(id: string, key: string): Promise<void> {
      await db.updateTable('uploads').set({ thumbnail_key: key }).where('id', '=', id).execute();
    },

    async setSha256(id: string, sha256: string): Promise<void> {
      await db.updateTable('uploads').set({ sha256 }).where('id', '=', id).execute();
    },

    missingSha256(limit: number): Promise<Pick<UploadRow, 'id' | 'storage_key'>[]> {
      return db
        .selectFrom('uploads')
        .select(['id', 'storage_key'])
        .where('sha256', 'is', null)
        .limit(limit)
        .execute();
    },

    /**
     * Counts one view, committed when the promise resolves. The views of requests served in
     * the same turn of the event loop share one transaction (a commit per request was the
     * largest cost of serving small files).
     */
    incrementViews: countView,

    async list(filter: ListFilter): Promise<{ rows: UploadRow[]; total: number }> {
      const term = filter.search
        ? { userId: filter.userId, term: filter.search, fileType: filter.fileType }
        : null;
      const where = (manyMatches: boolean) => {
        let q = db.selectFrom('uploads').where('user_id', '=', filter.userId);
        if (filter.fileType) q = q.where('file_type', '=', filter.fileType);
        if (term) q = q.where(search.where(term, manyMatches));
        return q;
      };

      // The count comes first: it tells the search how to plan the page.
      const indexCount = term ? search.count(db, term) : null;
      let total: number;
      if (indexCount) {
        total = await indexCount;
      } else if (term || filter.fileType) {
        const row = await where(false)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        total = Number(row.n);
      } else {
        // Every upload of the user: a counter kept on the user row.
        const row = await db
          .selectFrom('users')
          .select('upload_count')
          .where('id', '=', filter.userId)
          .executeTakeFirstOrThrow();
        total = Number(row.upload_count);
      }
      if (total === 0 || filter.offset >= total) return { rows: [], total };

      const [column, direction] = SORT_ORDER[filter.sort];
      const rows = await where(total > MANY_MATCHES)
        .selectAll()
        .orderBy(column, direction)
        .orderBy('id', direction)
        .limit(filter.limit)
        .offset(filter.offset)
        .execute();
      return { rows, total };
    },

    /**
     * Deletes the rows (only ownerId's, unless ownerId is null) and gives their bytes back to
     * each owner's quota, in one transaction. Returns what was deleted, so the bytes can follow.
     */
    async deleteMany(ids: string[], ownerId: string | null): Promise<UploadRow[]> {
      if (ids.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        let q = trx.selectFrom('uploads').selectAll().where('id', 'in', ids);
        if (ownerId !== null) q = q.where('user_id', '=', ownerId);
        const rows = await q.execute();
        if (rows.length === 0) return [];
        await trx
          .deleteFrom('uploads')
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
        const freed = new Map<string, { bytes: number; count: number }>();
        for (const r of rows) {
          const f = freed.get(r.user_id) ?? { bytes: 0, count: 0 };
          freed.set(r.user_id, { bytes: f.bytes + Number(r.size), count: f.count + 1 });
        }
        for (const [userId, { bytes, count }] of freed) {
          await trx
            .updateTable('users')
            .set((eb) => ({
              disk_used: eb('disk_used', '-', bytes),
              upload_count: eb('upload_count', '-', count),
            }))
            .where('id', '=', userId)
            .execute();
        }
        return rows;
      });
    },

    /** Of the given storage keys, those an upload (file or thumbnail) or a chunked session uses. */
    async referencedKeys(keys: string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const [files, thumbs, sessions] = await Promise.all([
        db
          .selectFrom('uploads')
          .select('storage_key as k')
          .where('storage_key', 'in', keys)
          .execute(),
        db
          .selectFrom('uploads')
          .select('thumbnail_key as k')
          .where('thumbnail_key', 'in', keys)
          .execute(),
        db
          .selectFrom('chunked_uploads')
          .select('storage_key as k')
          .where('storage_key', 'in', keys)
          .execute(),
      ]);
      return new Set([...files, ...thumbs, ...sessions].map((r) => r.k as string));
    },
  };
}
