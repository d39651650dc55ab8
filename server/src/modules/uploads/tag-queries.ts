/**
 * Part of the uploads repository: what uploads need of their tags (the tags module writes
 * them). Filtering by a tag, reading the tags of a page of uploads, and, when uploads are
 * deleted, taking them out of their tags' counts.
 */
import { sql, type SqlBool } from 'kysely';
import { forUpdate, type Db, type Executor } from '../../db/database.ts';
import { likePattern, searchFold } from '../../db/search.ts';

/**
 * The tag's rows, of the type group and matching the term when given: all three are read from
 * the tag's own rows (upload_tags carries its upload's type group and search text).
 */
export const tagRows = (tagId: string, fileType: string | undefined, term: string | undefined) =>
  sql<SqlBool>`ut.tag_id = ${tagId}
    ${fileType ? sql`and ut.file_type = ${fileType}` : sql``}
    ${term ? sql`and ut.body like ${likePattern(searchFold(term))} escape '\\'` : sql``}`;

/**
 * Only uploads among the tag's rows. `manyMatches` as for a search: walk the sort order's index
 * and probe each upload, rather than fetch every match and sort them.
 */
export function withTag(
  filter: { tagId: string; fileType?: string; search?: string },
  manyMatches: boolean,
) {
  const rows = tagRows(filter.tagId, filter.fileType, filter.search);
  return manyMatches
    ? sql<SqlBool>`exists (select 1 from upload_tags ut where ut.upload_id = uploads.id and ${rows})`
    : sql<SqlBool>`uploads.id in (select ut.upload_id from upload_tags ut where ${rows})`;
}

export async function tagOwnedBy(db: Db, tagId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('tags')
    .select('id')
    .where('id', '=', tagId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The tags on each of these uploads (in no particular order). */
export async function tagsOf(
  db: Db,
  uploadIds: string[],
): Promise<Map<string, { id: string; name: string }[]>> {
  const tags = new Map<string, { id: string; name: string }[]>();
  if (uploadIds.length === 0) return tags;
  const rows = await db
    .selectFrom('upload_tags')
    .innerJoin('tags', 'tags.id', 'upload_tags.tag_id')
    .select(['upload_tags.upload_id', 'tags.id', 'tags.name'])
    .where('upload_tags.upload_id', 'in', uploadIds)
    .execute();
  for (const r of rows) {
    tags.set(r.upload_id, [...(tags.get(r.upload_id) ?? []), { id: r.id, name: r.name }]);
  }
  return tags;
}

/**
 * Before these (locked) uploads are deleted: locks the rows of the tags they carry, in id order,
 * and takes the uploads out of those tags' counts (their upload_tags rows then cascade). The
 * tag's lock comes before its upload_tags rows here as in tagging, untagging and deleting a tag,
 * so none of them can wait on another in a cycle.
 */
export async function releaseTags(trx: Executor, uploadIds: string[]): Promise<void> {
  const tagIds = await trx
    .selectFrom('upload_tags')
    .select('tag_id')
    .distinct()
    .where('upload_id', 'in', uploadIds)
    .execute();
  if (tagIds.length === 0) return;
  const locked = await forUpdate(
    trx,
    trx
      .selectFrom('tags')
      .select('id')
      .where(
        'id',
        'in',
        tagIds.map((t) => t.tag_id),
      )
      .orderBy('id'),
  ).execute();
  if (locked.length === 0) return;
  // Counted under the tags' locks: nobody can untag these uploads meanwhile.
  const counts = await trx
    .selectFrom('upload_tags')
    .select(['tag_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('upload_id', 'in', uploadIds)
    .where(
      'tag_id',
      'in',
      locked.map((t) => t.id),
    )
    .groupBy('tag_id')
    .orderBy('tag_id')
    .execute();
  for (const { tag_id, n } of counts) {
    await trx
      .updateTable('tags')
      .set((eb) => ({ upload_count: eb('upload_count', '-', Number(n)) }))
      .where('id', '=', tag_id)
      .execute();
  }
}
