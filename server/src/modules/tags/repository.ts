/**
 * Every SQL query on tags and on which upload carries which tag. A tag and the uploads it is on
 * belong to one user: every statement is limited to that user's rows.
 */
import { identityKey } from '@upshot/contract';
import { foreignKeyViolation, uniqueViolation, type Db } from '../../db/database.ts';
import type { TagRow } from '../../db/schema.ts';

export type TagsRepository = ReturnType<typeof createTagsRepository>;
export type TagWithCount = TagRow & { upload_count: number };

export function createTagsRepository(db: Db) {
  const uploadCount = (tagId: string) =>
    db
      .selectFrom('upload_tags')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tag_id', '=', tagId)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));

  return {
    /** The user's tags by name, each with the number of its uploads. */
    async list(userId: string): Promise<TagWithCount[]> {
      const rows = await db
        .selectFrom('tags')
        .selectAll('tags')
        .select((eb) =>
          eb
            .selectFrom('upload_tags')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('upload_tags.tag_id', '=', 'tags.id')
            .as('upload_count'),
        )
        .where('user_id', '=', userId)
        .orderBy('name_key')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ ...r, upload_count: Number(r.upload_count ?? 0) }));
    },

    async find(id: string, userId: string): Promise<TagWithCount | undefined> {
      const row = await db
        .selectFrom('tags')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row && { ...row, upload_count: await uploadCount(row.id) };
    },

    /** 'exists': the user has a tag of that name (case aside) already. */
    async insert(row: TagRow): Promise<TagRow | 'exists'> {
      try {
        return await db.insertInto('tags').values(row).returningAll().executeTakeFirstOrThrow();
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

    /** Deletes the tag; it leaves every upload with it (the rows cascade). */
    async delete(id: string, userId: string): Promise<boolean> {
      const res = await db
        .deleteFrom('tags')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(res.numDeletedRows) === 1;
    },

    /** Of these upload ids, the user's own. */
    async ownedUploadIds(ids: string[], userId: string): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('uploads')
        .select('id')
        .where('id', 'in', ids)
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
      return rows.map((r) => r.id);
    },

    /**
     * Puts the tag on those of the uploads (ids of the user's own) that lack it. Returns how
     * many got it now; null when the tag or one of the uploads was deleted meanwhile.
     */
    async attach(tagId: string, uploadIds: string[]): Promise<number | null> {
      if (uploadIds.length === 0) return 0;
      // In id order: the uploads' rows are locked (for their foreign keys) in the order a
      // delete locks them.
      const sorted = [...uploadIds].sort();
      try {
        const res = await db
          .insertInto('upload_tags')
          .values(sorted.map((upload_id) => ({ tag_id: tagId, upload_id })))
          .onConflict((oc) => oc.columns(['tag_id', 'upload_id']).doNothing())
          .executeTakeFirst();
        return Number(res.numInsertedOrUpdatedRows ?? 0);
      } catch (err) {
        if (foreignKeyViolation(err)) return null;
        throw err;
      }
    },

    /** Takes the tag off these uploads; returns how many had it. */
    async detach(tagId: string, uploadIds: string[]): Promise<number> {
      if (uploadIds.length === 0) return 0;
      const res = await db
        .deleteFrom('upload_tags')
        .where('tag_id', '=', tagId)
        .where('upload_id', 'in', uploadIds)
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}
