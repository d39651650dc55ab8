/**
 * Every SQL query on tags and on which upload carries which tag. A tag and the uploads it is on
 * belong to one user: every statement is limited to that user's rows.
 */
import { identityKey } from '@upshot/contract';
import { foreignKeyViolation, forUpdate, uniqueViolation, type Db } from '../../db/database.ts';
import { tagSearchText } from '../../db/search.ts';
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
        .execute();
      return rows.map((r) => r.id);
    },

    /**
     * Puts the tag on those of the uploads among ids that are the user's and lack it, in one
     * transaction that locks those uploads (in id order, as a delete does), so the search text
     * copied from each cannot be overtaken by a change of its vanity URL. Answers how many of
     * the ids are the user's and how many got the tag now; null when the tag was deleted
     * meanwhile.
     */
    async attach(
      tagId: string,
      userId: string,
      ids: string[],
    ): Promise<{ owned: number; added: number } | null> {
      if (ids.length === 0) return { owned: 0, added: 0 };
      try {
        return await db.transaction().execute(async (trx) => {
          const uploads = await forUpdate(
            trx,
            trx
              .selectFrom('uploads')
              .select(['id', 'file_type', 'original_filename', 'vanity_url'])
              .where('id', 'in', ids)
              .where('user_id', '=', userId)
              .orderBy('id'),
          ).execute();
          if (uploads.length === 0) return { owned: 0, added: 0 };
          const res = await trx
            .insertInto('upload_tags')
            .values(
              uploads.map((u) => ({
                tag_id: tagId,
                upload_id: u.id,
                file_type: u.file_type,
                body: tagSearchText(u.original_filename, u.vanity_url),
              })),
            )
            .onConflict((oc) => oc.columns(['tag_id', 'upload_id']).doNothing())
            .executeTakeFirst();
          return { owned: uploads.length, added: Number(res.numInsertedOrUpdatedRows ?? 0) };
        });
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
