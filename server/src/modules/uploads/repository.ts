/**
 * Every SQL query on uploads and their link slugs, including the bookkeeping done in the same
 * transaction: the quota and upload count on the owner's row, and the statistics' summary rows
 * (views per user, uploads per type group, uploads and bytes per day; summaries.ts). Locks, on
 * PostgreSQL, are taken in one order, each kind in id order: uploads, their slugs, then the tags they carry
 * (tag-queries.ts), then upload_tags rows, owners, and the owners' summary rows. Tagging takes
 * uploads, tag, upload_tags too, so concurrent changes cannot wait on each other in a cycle.
 * The tags of uploads are read here (to filter and present uploads); the tags module writes them.
 */
import { chargedBytes, type Sort } from '@upshot/contract';
import { forUpdate, uniqueViolation, type Db } from '../../db/database.ts';
import { offsetOf, type Page, type PageQuery } from '../../db/paging.ts';
import { MANY_MATCHES, tagSearchText, type UploadSearch } from '../../db/search.ts';
import type { NewUploadRow, UploadRow } from '../../db/schema.ts';
import { enqueueTask } from '../../jobs/tasks-repository.ts';
import { addToSummaries, byKey } from './summaries.ts';
import {
  deadLinkIds,
  isDeadLink,
  setPrivacy,
  updateLink,
  type DeadLinkTimes,
} from './link-queries.ts';
import type { LinkColumns } from './link-settings.ts';
import { releaseTags, tagOwnedBy, tagRows, tagsOf, withTag } from './tag-queries.ts';

export type ListFilter = {
  userId: string;
  search?: string;
  fileType?: string;
  /** A tag of the user's. */
  tagId?: string;
  sort: Sort;
};

export type UploadsRepository = ReturnType<typeof createUploadsRepository>;

/** Rolls back a vanity URL's change when its slug may not be taken. */
class SlugTaken extends Error {}

/** What inserting an upload can come to, besides the new row. */
export type InsertResult =
  | { inserted: UploadRow }
  /** A row with this id exists already (a repeated completion): it is answered, uncharged. */
  | { existing: UploadRow }
  | 'quota'
  /** The short code is some upload's code or vanity URL already: draw another. */
  | 'code-taken';

const SORT_ORDER: Record<Sort, ['created_at' | 'size' | 'views', 'asc' | 'desc']> = {
  newest: ['created_at', 'desc'],
  oldest: ['created_at', 'asc'],
  largest: ['size', 'desc'],
  smallest: ['size', 'asc'],
  'most-viewed': ['views', 'desc'],
};

export function createUploadsRepository(db: Db, search: UploadSearch) {
  return {
    /**
     * Inserts the row, its short code in the slug namespace, and the tasks it needs (kinds),
     * and charges it to the owner (chargedBytes of its size), in one transaction: all or nothing.
     * The charge must fit beside what is used and what open chunked sessions reserve; an upload
     * made `fromSession` (a completion: the row has its session's id) takes that session's
     * reservation instead.
     */
    async insertCharged(
      row: NewUploadRow,
      tasks: string[],
      options: { fromSession?: boolean } = {},
    ): Promise<InsertResult> {
      try {
        return await db.transaction().execute(async (trx): Promise<InsertResult> => {
          // A repeated completion finds its upload before anything is charged again.
          const existing = () =>
            trx.selectFrom('uploads').selectAll().where('id', '=', row.id).executeTakeFirst();
          const before = await existing();
          if (before) return { existing: before };
          const charge = chargedBytes(Number(row.size));
          // The session's row before its owner's: the order the chunked uploads take them in.
          const session = options.fromSession
            ? await forUpdate(
                trx,
                trx.selectFrom('chunked_uploads').select('reserved').where('id', '=', row.id),
              ).executeTakeFirst()
            : undefined;
          const held = Number(session?.reserved ?? 0);
          const charged = await trx
            .updateTable('users')
            .set((eb) => ({
              disk_used: eb('disk_used', '+', charge),
              disk_reserved: eb('disk_reserved', '-', held),
              upload_count: eb('upload_count', '+', 1),
            }))
            .where('id', '=', row.user_id)
            .where((eb) =>
              eb(
                eb(eb('disk_used', '+', charge), '+', eb(eb.ref('disk_reserved'), '-', held)),
                '<=',
                eb.ref('disk_quota'),
              ),
            )
            .executeTakeFirst();
          if (Number(charged.numUpdatedRows) !== 1) {
            // Or was it made meanwhile, by a completion racing this one?
            const made = await existing();
            return made ? { existing: made } : 'quota';
          }
          if (held > 0) {
            await trx
              .updateTable('chunked_uploads')
              .set({ reserved: 0 })
              .where('id', '=', row.id)
              .execute();
          }
          const inserted = await trx
            .insertInto('uploads')
            .values(row)
            .returningAll()
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('slugs')
            .values({
              slug: row.short_code,
              upload_id: row.id,
              kind: 'code',
              owner_id: row.user_id,
            })
            .execute();
          await addToSummaries(trx, row.user_id, [inserted], 1);
          for (const kind of tasks) await enqueueTask(trx, kind, row.id, row.created_at);
          return { inserted };
        });
      } catch (err) {
        const constraint = uniqueViolation(err);
        if (constraint === null) throw err;
        if (/slug|short_code/.test(constraint)) return 'code-taken';
        // Another completion of the same session inserted it first.
        const existing = await db
          .selectFrom('uploads')
          .selectAll()
          .where('id', '=', row.id)
          .executeTakeFirst();
        if (existing) return { existing };
        throw err;
      }
    },

    /**
     * The quota left beside what is used and reserved; `besideSession`'s own reservation counts
     * as left (what its completion may take).
     */
    async remainingQuota(userId: string, besideSession?: string): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select(['disk_used', 'disk_reserved', 'disk_quota'])
        .where('id', '=', userId)
        .executeTakeFirst();
      // A user deleted while their upload streamed has nothing left.
      if (!row) return 0;
      const session = besideSession
        ? await db
            .selectFrom('chunked_uploads')
            .select('reserved')
            .where('id', '=', besideSession)
            .executeTakeFirst()
        : undefined;
      const taken =
        Number(row.disk_used) + Number(row.disk_reserved) - Number(session?.reserved ?? 0);
      return Math.max(0, Number(row.disk_quota) - taken);
    },

    /** Every storage key of a user's uploads and thumbnails (to remove them with the user). */
    async storageKeysOf(userId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('uploads')
        .select(['storage_key', 'thumbnail_key'])
        .where('user_id', '=', userId)
        .execute();
      return rows.flatMap((r) =>
        r.thumbnail_key ? [r.storage_key, r.thumbnail_key] : [r.storage_key],
      );
    },

    findById(id: string): Promise<UploadRow | undefined> {
      return db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * Sets or removes the vanity URL; the one it had is retired (released at `now`, still its
     * owner's). A slug in use is 'taken'; so is a retired one, unless it is a vanity URL of the
     * upload's owner, or one released before `freeBefore`. 'gone' when the upload is.
     */
    async setVanity(
      id: string,
      vanity: string | null,
      times: { now: string; freeBefore: string },
    ): Promise<UploadRow | 'taken' | 'gone'> {
      try {
        return await db.transaction().execute(async (trx) => {
          // The upload's row first, then its slugs: the order a delete locks them in.
          const updated = await trx
            .updateTable('uploads')
            .set({ vanity_url: vanity })
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirst();
          if (!updated) return 'gone' as const;
          await trx
            .updateTable('upload_tags')
            .set({ body: tagSearchText(updated.original_filename, vanity) })
            .where('upload_id', '=', id)
            .execute();
          await trx
            .updateTable('slugs')
            .set({ upload_id: null, released_at: times.now })
            .where('upload_id', '=', id)
            .where('kind', '=', 'vanity')
            .execute();
          if (vanity === null) return updated;
          const slug = vanity.toLowerCase();
          const existing = await forUpdate(
            trx,
            trx.selectFrom('slugs').selectAll().where('slug', '=', slug),
          ).executeTakeFirst();
          if (!existing) {
            await trx
              .insertInto('slugs')
              .values({ slug, upload_id: id, kind: 'vanity', owner_id: updated.user_id })
              .execute();
            return updated;
          }
          const free =
            existing.upload_id === null &&
            existing.kind === 'vanity' &&
            (existing.owner_id === updated.user_id ||
              (existing.released_at !== null && existing.released_at < times.freeBefore));
          if (!free) throw new SlugTaken();
          await trx
            .updateTable('slugs')
            .set({ upload_id: id, owner_id: updated.user_id, released_at: null })
            .where('slug', '=', slug)
            .execute();
          return updated;
        });
      } catch (err) {
        if (err instanceof SlugTaken || uniqueViolation(err) !== null) return 'taken';
        throw err;
      }
    },

    updateLink: (id: string, columns: Partial<LinkColumns>) => updateLink(db, id, columns),
    setPrivacy: (ids: string[], ownerId: string | null, isPublic: boolean) =>
      setPrivacy(db, ids, ownerId, isPublic),
    deadLinkIds: (times: DeadLinkTimes) => deadLinkIds(db, times),

    /**
     * Records that the vanity URLs of a user about to be deleted are given up now (their rows
     * stay, retired, when the user's uploads go).
     */
    async releaseVanitiesOf(userId: string, now: string): Promise<void> {
      await db
        .updateTable('slugs')
        .set({ released_at: now })
        .where('owner_id', '=', userId)
        .where('kind', '=', 'vanity')
        .where('released_at', 'is', null)
        .execute();
    },

    /** Records the thumbnail made for a pending upload; false when the upload is gone. */
    /** Records a thumbnail made, and the size of the picture or video it shows. */
    async setThumbnailReady(
      id: string,
      key: string,
      size: { width: number; height: number },
    ): Promise<boolean> {
      const res = await db
        .updateTable('uploads')
        .set({ thumbnail_key: key, thumbnail_status: 'ready', ...size })
        .where('id', '=', id)
        .where('thumbnail_status', '=', 'pending')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async setThumbnailFailed(id: string): Promise<void> {
      await db
        .updateTable('uploads')
        .set({ thumbnail_status: 'failed', thumbnail_key: null })
        .where('id', '=', id)
        .where('thumbnail_status', '=', 'pending')
        .execute();
    },

    async setSha256(id: string, sha256: string): Promise<void> {
      await db.updateTable('uploads').set({ sha256 }).where('id', '=', id).execute();
    },

    /**
     * A page of the user's uploads in the sort's order. The count comes first (it decides the
     * page's plan), so this is not pageOf's query-and-count.
     */
    async list(filter: ListFilter, p: PageQuery): Promise<Page<UploadRow>> {
      const { tagId } = filter;
      // With a tag, its own rows answer the type and the search too.
      const term =
        filter.search && !tagId
          ? { userId: filter.userId, term: filter.search, fileType: filter.fileType }
          : null;
      const where = (manyMatches: boolean) => {
        let q = db.selectFrom('uploads').where('user_id', '=', filter.userId);
        // The type on the upload too: a walk then takes the type's sort index.
        if (filter.fileType) q = q.where('file_type', '=', filter.fileType);
        if (term) q = q.where(search.where(term, manyMatches));
        if (tagId) q = q.where(withTag({ ...filter, tagId }, manyMatches));
        return q;
      };

      // The count comes first: it tells the search how to plan the page.
      const indexCount = term ? search.count(db, term) : null;
      let total: number;
      if (indexCount) {
        total = await indexCount;
      } else if (tagId) {
        // A tag's uploads are all its owner's: counted from the tag's rows alone.
        const row = await db
          .selectFrom('upload_tags as ut')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(tagRows(tagId, filter.fileType, filter.search))
          .executeTakeFirstOrThrow();
        total = Number(row.n);
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
      const offset = offsetOf(p);
      if (total === 0 || offset >= total) return { rows: [], total, ...p };

      const [column, direction] = SORT_ORDER[filter.sort];
      // The page's ids first, from the sort order's index alone (it holds the owner, the sort
      // column and the id), then only those rows: a deep page does not read every row before it.
      const page = where(total > MANY_MATCHES)
        .select('uploads.id')
        .orderBy(column, direction)
        .orderBy('id', direction)
        .limit(p.limit)
        .offset(offset);
      const rows = await db
        .selectFrom('uploads')
        .selectAll()
        .where('id', 'in', page)
        .orderBy(column, direction)
        .orderBy('id', direction)
        .execute();
      return { rows, total, ...p };
    },

    /**
     * Deletes the rows (only ownerId's, unless ownerId is null) and gives back to each owner's
     * quota what they were charged, in one transaction. Only what this call really deleted is refunded
     * (a concurrent delete of the same rows refunds nothing twice). Returns the deleted rows,
     * so their bytes can follow.
     */
    async deleteMany(
      ids: string[],
      ownerId: string | null,
      now: string,
      /** Only those whose links are dead at these times, checked as they are locked. */
      onlyDead?: DeadLinkTimes,
    ): Promise<UploadRow[]> {
      if (ids.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        let locking = trx.selectFrom('uploads').select('id').where('id', 'in', ids);
        if (ownerId !== null) locking = locking.where('user_id', '=', ownerId);
        // A link given a new life since it was found dead (a later expiry, a higher limit) stays.
        if (onlyDead) locking = locking.where(isDeadLink(onlyDead));
        const locked = await forUpdate(trx, locking.orderBy('id')).execute();
        if (locked.length === 0) return [];
        // Their slugs stay, retired (the uploads' delete sets their upload_id null); a vanity
        // URL's release is recorded for its reservation.
        await trx
          .updateTable('slugs')
          .set({ released_at: now })
          .where(
            'upload_id',
            'in',
            locked.map((r) => r.id),
          )
          .where('kind', '=', 'vanity')
          .execute();
        // Their tags' rows next (then the upload_tags rows cascade): the order tagging takes.
        await releaseTags(
          trx,
          locked.map((r) => r.id),
        );
        const rows = await trx
          .deleteFrom('uploads')
          .where(
            'id',
            'in',
            locked.map((r) => r.id),
          )
          .returningAll()
          .execute();
        const byOwner = new Map<string, UploadRow[]>();
        for (const r of rows) byOwner.set(r.user_id, [...(byOwner.get(r.user_id) ?? []), r]);
        for (const [userId, owned] of [...byOwner].sort(byKey)) {
          let bytes = 0;
          let views = 0;
          for (const r of owned) {
            bytes += chargedBytes(Number(r.size));
            views += Number(r.views);
          }
          await trx
            .updateTable('users')
            .set((eb) => ({
              disk_used: eb('disk_used', '-', bytes),
              upload_count: eb('upload_count', '-', owned.length),
              view_count: eb('view_count', '-', views),
            }))
            .where('id', '=', userId)
            .execute();
          await addToSummaries(trx, userId, owned, -1);
        }
        return rows;
      });
    },

    tagOwnedBy: (tagId: string, userId: string) => tagOwnedBy(db, tagId, userId),
    tagsOf: (uploadIds: string[]) => tagsOf(db, uploadIds),

    /**
     * Of the given storage keys, those an upload (file or thumbnail) or an unfinished chunked
     * session uses. A completed session's object is its upload's: once that upload is deleted,
     * bytes left behind (the process died between the delete and their removal) are an orphan.
     */
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
          .where('status', '!=', 'completed')
          .execute(),
      ]);
      return new Set([...files, ...thumbs, ...sessions].map((r) => r.k as string));
    },

    /** The multipart uploads chunked-upload sessions still hold (the sweep spares them). */
    async multipartIdsInUse(): Promise<Set<string>> {
      const rows = await db.selectFrom('chunked_uploads').select('multipart_id').execute();
      return new Set(rows.map((r) => r.multipart_id));
    },
  };
}
