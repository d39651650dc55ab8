import { SqliteAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * A link is never taken over: the slug of a deleted upload, or a vanity URL given up, stays in
 * the namespace as a retired row (upload_id null) instead of going.
 *
 * - upload_id: null once retired; an upload's delete sets it (on delete set null), whatever
 *   deleted it.
 * - owner_id: whose link it was (a vanity URL given up stays theirs to take back for a while);
 *   null once that user is deleted.
 * - released_at: when a vanity URL was given up (its 90 days count from it); null while in use,
 *   and on a retired row whose release nobody recorded (kept for good).
 *
 * SQLite cannot loosen a NOT NULL or a foreign key in place: both engines rebuild the table.
 */
export const m0015RetiredSlugs: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('slugs_next')
      .addColumn('slug', 'text', (c) => c.primaryKey())
      .addColumn('upload_id', 'text', (c) => c.references('uploads.id').onDelete('set null'))
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('code', 'vanity')`))
      .addColumn('owner_id', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('released_at', 'text')
      .execute();
    await sql`insert into slugs_next (slug, upload_id, kind, owner_id, released_at)
      select s.slug, s.upload_id, s.kind, u.user_id, null
      from slugs s join uploads u on u.id = s.upload_id`.execute(db);
    await db.schema.dropTable('slugs').execute();
    await sql`alter table slugs_next rename to slugs`.execute(db);
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
      // The names PostgreSQL gave the new table's constraints, as the old table had them.
      await sql`alter table slugs rename constraint slugs_next_pkey to slugs_pkey`.execute(db);
    }
    await db.schema.createIndex('slugs_upload_idx').on('slugs').columns(['upload_id']).execute();
    await db.schema.createIndex('slugs_owner_idx').on('slugs').columns(['owner_id']).execute();
  },
};
