import { SqliteAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * - tags: per-user tags, unique per user by name_key (identityKey of the name), each with the
 *   number of its uploads, kept in the transactions that tag, untag and delete uploads (which
 *   lock the tag row before any of its upload_tags rows);
 * - upload_tags: which upload carries which tag (both the same user's), gone with either. Each
 *   row carries its upload's type group and search text (filename and vanity URL, lower case),
 *   so a tag's uploads are counted and filtered from the tag's own rows (on SQLite a table
 *   without rowid: the rows live in the key's order);
 * - the statistics' summary rows, kept in the same transactions that change uploads and
 *   views, so no statistic scans the uploads: users.view_count, user_type_counts (uploads per
 *   type group) and user_daily_uploads (uploads and bytes per UTC day of creation);
 * - uploads_created_idx: the latest uploads of everyone (admin statistics).
 * The summary rows are filled from the existing uploads.
 */
export const m0006TagsStats: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('tags')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('upload_count', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('tags_user_name_key', ['user_id', 'name_key'])
      .execute();
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await db.schema
      .createTable('upload_tags')
      .addColumn('tag_id', 'text', (c) => c.notNull().references('tags.id').onDelete('cascade'))
      .addColumn('upload_id', 'text', (c) =>
        c.notNull().references('uploads.id').onDelete('cascade'),
      )
      .addColumn('file_type', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('upload_tags_pk', ['tag_id', 'upload_id'])
      .$call((t) => (sqlite ? t.modifyEnd(sql`without rowid`) : t))
      .execute();
    await db.schema
      .createIndex('upload_tags_upload_idx')
      .on('upload_tags')
      .columns(['upload_id', 'tag_id'])
      .execute();

    await db.schema
      .alterTable('users')
      .addColumn('view_count', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update users set view_count = coalesce(
      (select sum(views) from uploads where uploads.user_id = users.id), 0)`.execute(db);
    await db.schema
      .createIndex('users_upload_count_idx')
      .on('users')
      .columns(['upload_count', 'id'])
      .execute();

    await db.schema
      .createTable('user_type_counts')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('file_type', 'text', (c) => c.notNull())
      .addColumn('count', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_type_counts_pk', ['user_id', 'file_type'])
      .execute();
    await sql`insert into user_type_counts (user_id, file_type, count)
      select user_id, file_type, count(*) from uploads group by user_id, file_type`.execute(db);

    await db.schema
      .createTable('user_daily_uploads')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('count', 'bigint', (c) => c.notNull())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_daily_uploads_pk', ['user_id', 'day'])
      .execute();
    // The whole instance's days come from one range of this index, read alone.
    await db.schema
      .createIndex('user_daily_uploads_day_idx')
      .on('user_daily_uploads')
      .columns(['day', 'count', 'bytes'])
      .execute();
    await sql`insert into user_daily_uploads (user_id, day, count, bytes)
      select user_id, substr(created_at, 1, 10), count(*), sum(size) from uploads
      group by user_id, substr(created_at, 1, 10)`.execute(db);

    await db.schema
      .createIndex('uploads_created_idx')
      .on('uploads')
      .columns(['created_at', 'id'])
      .execute();
  },
};
