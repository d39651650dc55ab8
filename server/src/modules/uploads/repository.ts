/**
 * Every SQL query on uploads and their link slugs, including the bookkeeping done in the same
 * transaction: the quota and upload count on the owner's row, and the statistics' summary rows
 * (views per user, uploads per type group, uploads and bytes per day; summaries.ts). Locks, on
 * PostgreSQL, are taken in one order, each kind in id order: uploads, then the tags they carry
 * (tag-queries.ts), then upload_tags rows, owners, and the owners' summary rows. Tagging takes
 * uploads, tag, upload_tags too, so concurrent changes cannot wait on each other in a cycle.
 * The tags of uploads are read here (to filter and present uploads); the tags module writes them.
 */
import type { Sort } from '@upshot/contract';
import type { CompiledQuery } from 'kysely';
import { forUpdate, prepared, uniqueViolation, type Db } from '../../db/database.ts';
import { MANY_MATCHES, tagSearchText, type UploadSearch } from '../../db/search.ts';
import type { NewUploadRow, UploadRow } from '../../db/schema.ts';
import { enqueueTask } from '../../jobs/tasks-repository.ts';
import { turnBatcher } from '../../lib/turn-batcher.ts';
import { noLinkCache, type LinkCache } from './link-cache.ts';
import { addToSummaries, byKey } from './summaries.ts';
import { releaseTags, tagOwnedBy, tagRows, tagsOf, withTag } from './tag-queries.ts';

export type ListFilter = {
  userId: string;
  search?: string;
  fileType?: string;
  /** A tag of the user's. */
  tagId?: string;
  sort: Sort;
  offset: number;
  limit: number;
};

export type UploadsRepository = ReturnType<typeof createUploadsRepository>;

/** What serving a link needs of its upload. */
export type LinkRow = Pick<
  UploadRow,
  | 'id'
  | 'user_id'
  | 'is_public'
  | 'mime_type'
  | 'original_filename'
  | 'created_at'
  | 'size'
  | 'storage_key'
>;

/** What inserting an upload can come to, besides the new row. */
export type InsertResult =
  | { inserted: UploadRow }
  /** A row with this id exists already (a repeated completion): it is answered, uncharged. */
  | { existing: UploadRow }
  | 'quota'
  /** The short code is some upload's code or vanity URL already: draw another. */
  | 'code-taken';

/** The most slugs one lookup query names. */
const LINK_BATCH = 128;

const SORT_ORDER: Record<Sort, ['created_at' | 'size' | 'views', 'asc' | 'desc']> = {
  newest: ['created_at', 'desc'],
  oldest: ['created_at', 'asc'],
  largest: ['size', 'desc'],
  smallest: ['size', 'asc'],
  'most-viewed': ['views', 'desc'],
};

export function createUploadsRepository(
  db: Db,
  search: UploadSearch,
  linkCache: LinkCache = noLinkCache,
) {
  // The links' lookup, built and compiled once per size of its list of slugs (powers of two,
  // the list padded with its last slug): it runs for every download, where building and
  // compiling a query cost as much as running it. Only its parameters change, and on
  // PostgreSQL each connection prepares it once.
  const linkQueries = new Map<number, CompiledQuery<LinkRow & { slug: string }>>();
  const linkQuery = (size: number) => {
    let query = linkQueries.get(size);
    if (!query) {
      query = db
        .selectFrom('slugs')
        .innerJoin('uploads', 'uploads.id', 'slugs.upload_id')
        .select([
          'slugs.slug',
          'uploads.id',
          'uploads.user_id',
          'uploads.is_public',
          'uploads.mime_type',
          'uploads.original_filename',
          'uploads.created_at',
          'uploads.size',
          'uploads.storage_key',
        ])
        .where(
          'slugs.slug',
          'in',
          Array.from({ length: size }, (_, i) => String(i)),
        )
        .compile();
      if (query.parameters.length !== size) throw new Error('one parameter per slug');
      query = prepared(query);
      linkQueries.set(size, query);
    }
    return query;
  };

  /** The uploads behind these (lower-cased) slugs: one indexed query per LINK_BATCH slugs. */
  async function findLinks(slugs: string[]): Promise<Map<string, LinkRow>> {
    const found = new Map<string, LinkRow>();
    for (let i = 0; i < slugs.length; i += LINK_BATCH) {
      const some = slugs.slice(i, i + LINK_BATCH);
      const size = 2 ** Math.ceil(Math.log2(some.length));
      const parameters = [...some, ...Array<string>(size - some.length).fill(some.at(-1)!)];
      const query: CompiledQuery<LinkRow & { slug: string }> = { ...linkQuery(size), parameters };
      const { rows } = await db.executeQuery(query);
      for (const row of rows) found.set(row.slug, row);
    }
    return found;
  }

  // The lookups of the downloads that arrive in one turn of the event loop share one query
  // (one at a time; those that arrive meanwhile share the next). Each reads the database after
  // its request arrived; what it finds may be kept only under link-cache.ts's rules.
  const lookUp = turnBatcher<{ slug: string; row?: LinkRow }>(async (items) => {
    const rows = await findLinks([...new Set(items.map((item) => item.slug))]);
    for (const item of items) item.row = rows.get(item.slug);
  });

  return {
    /**
     * Inserts the row, its short code in the slug namespace, and the tasks it needs (kinds),
     * and charges its size to the owner, in one transaction: all or nothing.
     */
    async insertCharged(row: NewUploadRow, tasks: string[]): Promise<InsertResult> {
      try {
        return await db.transaction().execute(async (trx): Promise<InsertResult> => {
          // A repeated completion finds its upload before anything is charged again.
          const existing = () =>
            trx.selectFrom('uploads').selectAll().where('id', '=', row.id).executeTakeFirst();
          const before = await existing();
          if (before) return { existing: before };
          const charged = await trx
            .updateTable('users')
            .set((eb) => ({
              disk_used: eb('disk_used', '+', row.size),
              upload_count: eb('upload_count', '+', 1),
            }))
            .where('id', '=', row.user_id)
            .where((eb) => eb(eb('disk_used', '+', row.size), '<=', eb.ref('disk_quota')))
            .executeTakeFirst();
          if (Number(charged.numUpdatedRows) !== 1) {
            // Or was it made meanwhile, by a completion racing this one?
            const made = await existing();
            return made ? { existing: made } : 'quota';
          }
          const inserted = await trx
            .insertInto('uploads')
            .values(row)
            .returningAll()
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('slugs')
            .values({ slug: row.short_code, upload_id: row.id, kind: 'code' })
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

    async remainingQuota(userId: string): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select(['disk_used', 'disk_quota'])
        .where('id', '=', userId)
        .executeTakeFirst();
      // A user deleted while their upload streamed has nothing left.
      return row ? Math.max(0, Number(row.disk_quota) - Number(row.disk_used)) : 0;
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

    findByShortCode(code: string): Promise<UploadRow | undefined> {
      return db
        .selectFrom('uploads')
        .selectAll()
        .where('short_code', '=', code.toLowerCase())
        .executeTakeFirst();
    },

    /**
     * What serving needs of the upload behind a link's path segment (a vanity URL in any case,
     * or a short code: one namespace): from this instance's memory on PostgreSQL when it keeps
     * it (link-cache.ts), else one indexed lookup shared with the turn's other downloads.
     */
    async findLink(slug: string): Promise<LinkRow | undefined> {
      const key = slug.toLowerCase();
      const kept = linkCache.get(key);
      if (kept) return kept;
      const version = linkCache.version();
      const item: { slug: string; row?: LinkRow } = { slug: key };
      await lookUp(item);
      if (item.row) linkCache.put(version, key, item.row);
      return item.row;
    },

    /**
     * Called once a change to links has committed (uploads deleted, a vanity URL set or
     * removed, a user deleted): resolves when no instance serves what the change replaced.
     */
    linksChanged(): Promise<void> {
      return linkCache.settled();
    },

    /** A link's path segment: a vanity URL (any case) or a short code, one namespace. */
    findBySlug(slug: string): Promise<UploadRow | undefined> {
      return db
        .selectFrom('slugs')
        .innerJoin('uploads', 'uploads.id', 'slugs.upload_id')
        .selectAll('uploads')
        .where('slugs.slug', '=', slug.toLowerCase())
        .executeTakeFirst();
    },

    /** Sets or removes the vanity URL; 'taken' when it is another upload's slug, 'gone' when the upload is. */
    async setVanity(id: string, vanity: string | null): Promise<UploadRow | 'taken' | 'gone'> {
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
            .deleteFrom('slugs')
            .where('upload_id', '=', id)
            .where('kind', '=', 'vanity')
            .execute();
          if (vanity !== null) {
            await trx
              .insertInto('slugs')
              .values({ slug: vanity.toLowerCase(), upload_id: id, kind: 'vanity' })
              .execute();
          }
          return updated;
        });
      } catch (err) {
        if (uniqueViolation(err) !== null) return 'taken';
        throw err;
      }
    },

    /**
     * Records a thumbnail made for an upload that had none (or had `replaces`, whose object is
     * gone); false when the upload is gone or another thumbnail was recorded meanwhile.
     */
    async setThumbnailReady(id: string, key: string, replaces: string | null): Promise<boolean> {
      const res = await db
        .updateTable('uploads')
        .set({ thumbnail_key: key, thumbnail_status: 'ready' })
        .where('id', '=', id)
        .where((eb) =>
          replaces === null
            ? eb('thumbnail_status', '=', 'pending')
            : eb('thumbnail_key', '=', replaces),
        )
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
     * Adds views (upload id to count) to the uploads and to their owners' totals, in one
     * transaction. In id order, so that the batches of several instances lock rows in the same
     * order: the uploads first, then their owners. An upload deleted meanwhile counts nowhere.
     */
    async addViews(counts: ReadonlyMap<string, number>): Promise<void> {
      if (counts.size === 0) return;
      await db.transaction().execute(async (trx) => {
        const owners = new Map<string, number>();
        for (const [id, n] of [...counts].sort(byKey)) {
          const row = await trx
            .updateTable('uploads')
            .set((eb) => ({ views: eb('views', '+', n) }))
            .where('id', '=', id)
            .returning('user_id')
            .executeTakeFirst();
          if (row) owners.set(row.user_id, (owners.get(row.user_id) ?? 0) + n);
        }
        for (const [userId, n] of [...owners].sort(byKey)) {
          await trx
            .updateTable('users')
            .set((eb) => ({ view_count: eb('view_count', '+', n) }))
            .where('id', '=', userId)
            .execute();
        }
      });
    },

    async list(filter: ListFilter): Promise<{ rows: UploadRow[]; total: number }> {
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
      if (total === 0 || filter.offset >= total) return { rows: [], total };

      const [column, direction] = SORT_ORDER[filter.sort];
      // The page's ids first, from the sort order's index alone (it holds the owner, the sort
      // column and the id), then only those rows: a deep page does not read every row before it.
      const page = where(total > MANY_MATCHES)
        .select('uploads.id')
        .orderBy(column, direction)
        .orderBy('id', direction)
        .limit(filter.limit)
        .offset(filter.offset);
      const rows = await db
        .selectFrom('uploads')
        .selectAll()
        .where('id', 'in', page)
        .orderBy(column, direction)
        .orderBy('id', direction)
        .execute();
      return { rows, total };
    },

    /**
     * Deletes the rows (only ownerId's, unless ownerId is null) and gives their bytes back to
     * each owner's quota, in one transaction. Only what this call really deleted is refunded
     * (a concurrent delete of the same rows refunds nothing twice). Returns the deleted rows,
     * so their bytes can follow.
     */
    async deleteMany(ids: string[], ownerId: string | null): Promise<UploadRow[]> {
      if (ids.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        let locking = trx.selectFrom('uploads').select('id').where('id', 'in', ids);
        if (ownerId !== null) locking = locking.where('user_id', '=', ownerId);
        const locked = await forUpdate(trx, locking.orderBy('id')).execute();
        if (locked.length === 0) return [];
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
            bytes += Number(r.size);
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
