import crypto from 'node:crypto';
import { SHORT_CODE_ALPHABET, SHORT_CODE_LENGTH, identityKey } from '@upshot/contract';
import { sql, type Kysely, type Migration } from 'kysely';

/** Types that had thumbnails when this migration was written (sharp rasters and video). */
const RASTER = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/tiff',
  'image/heif',
];

/**
 * - users: email_key and username_key, normalized in code (NFKC, lower case) with plain unique
 *   indexes, replacing lower() indexes that folded only ASCII on SQLite;
 * - uploads: thumbnail_status instead of a marker value in thumbnail_key;
 * - slugs: one namespace for short codes and vanity URLs;
 * - chunked uploads: completion claims with a time, the upload a session made, and per-part
 *   write claims;
 * - tasks: work done after a response, with attempts and last error.
 */
export const m0004Hardening: Migration = {
  async up(db: Kysely<unknown>) {
    await usersKeys(db);
    await thumbnailStatus(db);
    await slugs(db);
    await chunkedClaims(db);
    await tasks(db);
  },
};

async function usersKeys(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_key', 'text').execute();
  await db.schema.alterTable('users').addColumn('username_key', 'text').execute();
  const users = await sql<{
    id: string;
    email: string;
    username: string;
  }>`select id, email, username from users`.execute(db);
  const seen = new Map<string, string>();
  for (const u of users.rows) {
    const keys = [`email:${identityKey(u.email)}`, `username:${identityKey(u.username)}`];
    for (const key of keys) {
      const other = seen.get(key);
      if (other) {
        throw new Error(
          `Users ${other} and ${u.id} have the same ${key.split(':')[0]} once case is ignored; rename one before upgrading`,
        );
      }
      seen.set(key, u.id);
    }
    await sql`update users set email_key = ${identityKey(u.email)}, username_key = ${identityKey(u.username)}
      where id = ${u.id}`.execute(db);
  }
  await sql`drop index users_email_lower_key`.execute(db);
  await sql`drop index users_username_lower_key`.execute(db);
  await db.schema.createIndex('users_email_key').on('users').unique().column('email_key').execute();
  await db.schema
    .createIndex('users_username_key')
    .on('users')
    .unique()
    .column('username_key')
    .execute();
}

async function thumbnailStatus(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('uploads')
    .addColumn('thumbnail_status', 'text', (c) => c.notNull().defaultTo('none'))
    .execute();
  const raster = sql.join(RASTER.map((m) => sql`${m}`));
  await sql`update uploads set thumbnail_status = case
      when thumbnail_key = 'none' then 'failed'
      when thumbnail_key is not null then 'ready'
      when lower(mime_type) in (${raster}) or lower(mime_type) like 'video/%' then 'pending'
      else 'none' end`.execute(db);
  await sql`update uploads set thumbnail_key = null where thumbnail_key = 'none'`.execute(db);
}

function newShortCode(): string {
  let code = '';
  for (const b of crypto.randomBytes(SHORT_CODE_LENGTH)) {
    code += SHORT_CODE_ALPHABET[b % SHORT_CODE_ALPHABET.length];
  }
  return code;
}

async function slugs(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('slugs')
    .addColumn('slug', 'text', (c) => c.primaryKey())
    .addColumn('upload_id', 'text', (c) => c.notNull().references('uploads.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('code', 'vanity')`))
    .execute();
  await db.schema.createIndex('slugs_upload_idx').on('slugs').columns(['upload_id']).execute();
  // Vanity URLs first: until now a lookup preferred them, so a short code equal to one never
  // reached its own file. Such an upload gets a new short code (its old link was not its own).
  await sql`insert into slugs (slug, upload_id, kind)
    select lower(vanity_url), id, 'vanity' from uploads where vanity_url is not null`.execute(db);
  await sql`insert into slugs (slug, upload_id, kind)
    select short_code, id, 'code' from uploads u
    where not exists (select 1 from slugs s where s.slug = u.short_code)`.execute(db);
  const shadowed = await sql<{ id: string }>`select id from uploads u
    where not exists (select 1 from slugs s where s.upload_id = u.id and s.kind = 'code')`.execute(
    db,
  );
  for (const { id } of shadowed.rows) {
    for (;;) {
      const code = newShortCode();
      const taken = await sql`select 1 from slugs where slug = ${code}`.execute(db);
      if (taken.rows.length > 0) continue;
      await sql`insert into slugs (slug, upload_id, kind) values (${code}, ${id}, 'code')`.execute(
        db,
      );
      await sql`update uploads set short_code = ${code} where id = ${id}`.execute(db);
      break;
    }
  }
}

async function chunkedClaims(db: Kysely<unknown>): Promise<void> {
  for (const column of ['claim', 'claimed_at', 'upload_id']) {
    await db.schema.alterTable('chunked_uploads').addColumn(column, 'text').execute();
  }
  // A session left 'completing' by a crash before this version: its claim is stale at once.
  await sql`update chunked_uploads set claimed_at = created_at where status = 'completing'`.execute(
    db,
  );
  await db.schema
    .alterTable('chunked_upload_parts')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('stored'))
    .execute();
  await db.schema.alterTable('chunked_upload_parts').addColumn('writer', 'text').execute();
  await db.schema.alterTable('chunked_upload_parts').addColumn('alive_at', 'text').execute();
}

async function tasks(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('run_after', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('tasks_kind_subject_key', ['kind', 'subject_id'])
    .execute();
  await db.schema.createIndex('tasks_run_after_idx').on('tasks').column('run_after').execute();
  // Digests a crash left missing were found by a periodic scan; they are tasks now.
  const now = new Date().toISOString();
  const missing = await sql<{ id: string }>`select id from uploads where sha256 is null`.execute(
    db,
  );
  for (const { id } of missing.rows) {
    await sql`insert into tasks (id, kind, subject_id, run_after, created_at)
      values (${crypto.randomUUID()}, 'upload.sha256', ${id}, ${now}, ${now})`.execute(db);
  }
}
