/**
 * Every SQL query on tags and on which upload carries which tag. A tag and the uploads it is on
 * belong to one user: the service checks the tag is the caller's, and the statements here that
 * take upload ids keep only that user's uploads.
 *
 * Locks, on PostgreSQL: a change locks the uploads first (in id order), then the tag row, then
 * its upload_tags rows, then the owner's row, the order a delete of uploads takes them in (see
 * the uploads repository); a tag's upload_count changes only while its row is locked.
 *
 * The limits: an upload's tags are counted while the upload's row is locked (every tagging
 * locks it first), and the user's tag_count is raised by one conditional statement, as the
 * quota is charged, so concurrent requests cannot pass either limit together.
 */
import { identityKey, MAX_TAGS_PER_UPLOAD, MAX_TAGS_PER_USER } from '@upshot/contract';
import { forUpdate, uniqueViolation, type Db, type Executor } from '../../db/database.ts';
import type { NewTagRow, TagRow } from '../../db/schema.ts';
import { tagSearchText } from '../../db/search.ts';

export type TagsRepository = ReturnType<typeof createTagsRepository>;

/** Locks the user's tag row; false when it is not there (any more). */
async function lockTag(trx: Executor, id: string, userId: string): Promise<boolean> {
  const row = await forUpdate(
    trx,
    trx.selectFrom('tags').select('id').where('id', '=', id).where('user_id', '=', userId),
  ).executeTakeFirst();
  return row !== undefined;
}

const addToCount = (trx: Executor, id: string, n: number) =>
  trx
    .updateTable('tags')
    .set((eb) => ({ upload_count: eb('upload_count', '+', n) }))
    .where('id', '=', id)
    .execute();

export function createTagsRepository(db: Db) {
  return {
    /** The user's tags (the service sorts them for people). */
    list(userId: string): Promise<TagRow[]> {
      return db.selectFrom('tags').selectAll().where('user_id', '=', userId).execute();
    },

    find(id: string, userId: string): Promise<TagRow | undefined> {
      return db
        .selectFrom('tags')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    /**
     * 'exists': the user has a tag of that name (case aside) already; 'limit': the user has
     * MAX_TAGS_PER_USER tags.
     */
    async insert(row: NewTagRow): Promise<TagRow | 'exists' | 'limit'> {
      try {
        return await db.transaction().execute(async (trx) => {
          // The row first: a name taken is said so even at the limit.
          const tag = await trx
            .insertInto('tags')
            .values(row)
            .returningAll()
            .executeTakeFirstOrThrow();
          const counted = await trx
            .updateTable('users')
            .set((eb) => ({ tag_count: eb('tag_count', '+', 1) }))
            .where('id', '=', row.user_id)
            .where('tag_count', '<', MAX_TAGS_PER_USER)
            .executeTakeFirst();
          if (Number(counted.numUpdatedRows) === 1) return tag;
          // Not made after all.
          await trx.deleteFrom('tags').where('id', '=', row.id).execute();
          return 'limit' as const;
        });
      } catch (err) {
        if (uniqueViolation(err) !== null) return 'exists';
        throw err;
      }
    },

    async rename(id: string, userId: string, name: string): Promise<TagRow | 'exists' | 'gone'> {
      try {
        const row = await db
          .updateTable('tags')
          .set({ name, name_key: identityKey(name) })
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .returningAll()
          .executeTakeFirst();
        return row ?? 'gone';
      } catch (err) {
        if (uniqueViolation(err) !== null) return 'exists';
        throw err;
      }
    },

    /** Deletes the tag; it leaves every upload with it (the rows cascade, after the tag's lock). */
    async delete(id: string, userId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const res = await trx
          .deleteFrom('tags')
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (Number(res.numDeletedRows) !== 1) return false;
        await trx
          .updateTable('users')
          .set((eb) => ({ tag_count: eb('tag_count', '-', 1) }))
          .where('id', '=', userId)
          .execute();
        return true;
      });
    },

    /**
     * Puts the user's tag on those of the uploads among ids that are the user's, lack it and
     * carry fewer than MAX_TAGS_PER_UPLOAD tags, copying each one's type group and search text
     * (its row is locked, so a change of its vanity URL cannot overtake the copy). Answers how
     * many of the ids are the user's uploads, how many got the tag now and how many lack it but
     * are full; null when the tag is gone.
     */
    async attach(
      tagId: string,
      userId: string,
      ids: string[],
    ): Promise<{ owned: number; added: number; full: number } | null> {
      return db.transaction().execute(async (trx) => {
        const uploads =
          ids.length === 0
            ? []
            : await forUpdate(
                trx,
                trx
                  .selectFrom('uploads')
                  .select(['id', 'file_type', 'original_filename', 'vanity_url'])
                  .where('id', 'in', ids)
                  .where('user_id', '=', userId)
                  .orderBy('id'),
              ).execute();
        if (!(await lockTag(trx, tagId, userId))) return null;
        if (uploads.length === 0) return { owned: 0, added: 0, full: 0 };
        const counts = await trx
          .selectFrom('upload_tags')
          .select((eb) => [
            'upload_id',
            eb.fn.countAll<number>().as('tags'),
            eb.fn.sum<number>(eb.case().when('tag_id', '=', tagId).then(1).else(0).end()).as('has'),
          ])
          .where(
            'upload_id',
            'in',
            uploads.map((u) => u.id),
          )
          .groupBy('upload_id')
          .execute();
        const full = new Set(
          counts
            .filter((c) => Number(c.has) === 0 && Number(c.tags) >= MAX_TAGS_PER_UPLOAD)
            .map((c) => c.upload_id),
        );
        const open = uploads.filter((u) => !full.has(u.id));
        if (open.length === 0) return { owned: uploads.length, added: 0, full: full.size };
        const res = await trx
          .insertInto('upload_tags')
          .values(
            open.map((u) => ({
              tag_id: tagId,
              upload_id: u.id,
              file_type: u.file_type,
              body: tagSearchText(u.original_filename, u.vanity_url),
            })),
          )
          .onConflict((oc) => oc.columns(['tag_id', 'upload_id']).doNothing())
          .executeTakeFirst();
        const added = Number(res.numInsertedOrUpdatedRows ?? 0);
        if (added > 0) await addToCount(trx, tagId, added);
        return { owned: uploads.length, added, full: full.size };
      });
    },

    /**
     * Takes the user's tag off those of the uploads among ids that are the user's; answers how
     * many had it, or null when the tag is gone.
     */
    async detach(tagId: string, userId: string, ids: string[]): Promise<number | null> {
      return db.transaction().execute(async (trx) => {
        if (!(await lockTag(trx, tagId, userId))) return null;
        const res = await trx
          .deleteFrom('upload_tags')
          .where('tag_id', '=', tagId)
          .where('upload_id', 'in', (eb) =>
            eb
              .selectFrom('uploads')
              .select('id')
              .where('id', 'in', ids)
              .where('user_id', '=', userId),
          )
          .executeTakeFirst();
        const removed = Number(res.numDeletedRows);
        if (removed > 0) await addToCount(trx, tagId, -removed);
        return removed;
      });
    },

    /** Whether the upload is the user's. */
    async ownsUpload(uploadId: string, userId: string): Promise<boolean> {
      const row = await db
        .selectFrom('uploads')
        .select('id')
        .where('id', '=', uploadId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
