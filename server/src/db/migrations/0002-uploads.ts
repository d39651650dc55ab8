import { SqliteAdapter, sql, type Kysely, type Migration } from 'kysely';

/** Uploads, resumable chunked-upload sessions and their received parts. */
export const m0002Uploads: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('upload_count', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable('uploads')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('original_filename', 'text', (c) => c.notNull())
      .addColumn('mime_type', 'text', (c) => c.notNull())
      // images | videos | documents | archives | other: the filter group, from contract's mapping
      .addColumn('file_type', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      // null until hashed: chunked uploads are hashed after completion, off the request
      .addColumn('sha256', 'text')
      .addColumn('views', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('short_code', 'text', (c) => c.notNull().unique())
      .addColumn('vanity_url', 'text')
      .addColumn('is_public', 'integer', (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull())
      .addColumn('thumbnail_key', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('uploads_vanity_lower_key')
      .on('uploads')
      .unique()
      .expression(sql`lower(vanity_url)`)
      .execute();
    // One index per sort order, each led by the owner; the id breaks ties for stable paging.
    for (const [name, cols] of [
      ['uploads_user_created_idx', ['user_id', 'created_at', 'id']],
      ['uploads_user_size_idx', ['user_id', 'size', 'id']],
      ['uploads_user_views_idx', ['user_id', 'views', 'id']],
      ['uploads_user_type_created_idx', ['user_id', 'file_type', 'created_at', 'id']],
    ] as const) {
      await db.schema
        .createIndex(name)
        .on('uploads')
        .columns([...cols])
        .execute();
    }
    await db.schema
      .createIndex('uploads_storage_key_idx')
      .on('uploads')
      .column('storage_key')
      .execute();
    await db.schema
      .createIndex('uploads_thumbnail_key_idx')
      .on('uploads')
      .column('thumbnail_key')
      .execute();

    await createSearchIndexes(db);

    await db.schema
      .createTable('chunked_uploads')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('mime_type', 'text', (c) => c.notNull())
      .addColumn('total_size', 'bigint', (c) => c.notNull())
      .addColumn('total_chunks', 'integer', (c) => c.notNull())
      .addColumn('chunk_size', 'bigint', (c) => c.notNull())
      .addColumn('is_public', 'integer', (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull())
      .addColumn('multipart_id', 'text', (c) => c.notNull())
      // open -> completing (one completion at a time); the row goes when the upload exists
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('chunked_uploads_expires_idx')
      .on('chunked_uploads')
      .column('expires_at')
      .execute();

    await db.schema
      .createTable('chunked_upload_parts')
      .addColumn('upload_id', 'text', (c) =>
        c.notNull().references('chunked_uploads.id').onDelete('cascade'),
      )
      .addColumn('chunk_index', 'integer', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('received_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('chunked_upload_parts_pk', ['upload_id', 'chunk_index'])
      .execute();
  },
};

/** Substring search over filename and vanity URL (see db/search.ts). */
async function createSearchIndexes(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index uploads_filename_trgm_idx on uploads using gin (lower(original_filename) gin_trgm_ops)`.execute(
      db,
    );
    await sql`create index uploads_vanity_trgm_idx on uploads using gin (lower(vanity_url) gin_trgm_ops)`.execute(
      db,
    );
    return;
  }
  // user_id and file_type ride along unindexed, so a search can be counted from here alone.
  await sql`create virtual table uploads_fts using fts5(body, user_id unindexed, file_type unindexed, tokenize = 'trigram')`.execute(
    db,
  );
  const body = (row: string) =>
    sql.raw(`${row}.original_filename || char(10) || coalesce(${row}.vanity_url, '')`);
  await sql`create trigger uploads_fts_insert after insert on uploads begin
    insert into uploads_fts (rowid, body, user_id, file_type)
    values (new.rowid, ${body('new')}, new.user_id, new.file_type); end`.execute(db);
  await sql`create trigger uploads_fts_delete after delete on uploads begin
    delete from uploads_fts where rowid = old.rowid; end`.execute(db);
  await sql`create trigger uploads_fts_update after update of original_filename, vanity_url on uploads begin
    update uploads_fts set body = ${body('new')} where rowid = new.rowid; end`.execute(db);
}
