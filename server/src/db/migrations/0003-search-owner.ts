import { SqliteAdapter, sql, type Kysely, type Migration, type RawBuilder } from 'kysely';

/**
 * Search indexes that count a search's matches without reading each match's upload row
 * (see db/search.ts).
 *
 * SQLite: the FTS5 index carries each upload's owner and type group as trigram tokens, so a
 * search is counted and filtered inside FTS5 alone. Each owner gets a sequence number once
 * (search_owners), written as three CJK code points: exactly one trigram, unique per owner.
 *
 * PostgreSQL: a narrow side table (owner, type group, lower-cased filename and vanity URL)
 * with a pg_trgm GIN index, kept by a trigger; its rows are a third the size of an upload
 * row, so rechecking thousands of matches reads far fewer pages.
 */
export const m0003SearchOwner: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return postgresUp(db);
    // All or nothing (a crash during the backfill leaves the old index in place). The runner
    // now runs every migration in a transaction; before, this one opened its own.
    if (db.isTransaction) await sqliteUp(db);
    else await db.transaction().execute(sqliteUp);
  },
};

async function sqliteUp(db: Kysely<unknown>): Promise<void> {
  for (const trigger of ['uploads_fts_insert', 'uploads_fts_delete', 'uploads_fts_update']) {
    await sql`drop trigger if exists ${sql.ref(trigger)}`.execute(db);
  }
  await sql`drop table if exists uploads_fts`.execute(db);

  await sql`create table search_owners (
    user_id text primary key,
    seq integer not null unique,
    token text not null
  )`.execute(db);
  // A new owner takes the next number; SQLite has one writer, so max + 1 cannot race.
  const addOwner = (userId: RawBuilder<unknown>) =>
    sql`insert or ignore into search_owners (user_id, seq, token)
      select ${userId}, s, char(19968 + (s / 400000000) % 20000, 19968 + (s / 20000) % 20000, 19968 + s % 20000)
      from (select coalesce(max(seq), 0) + 1 as s from search_owners)`;
  await sql`create virtual table uploads_fts using fts5(body, owner, kind, tokenize = 'trigram')`.execute(
    db,
  );
  const body = (row: string) =>
    sql.raw(`${row}.original_filename || char(10) || coalesce(${row}.vanity_url, '')`);
  const kind = (row: string) => sql.raw(`substr(${row}.file_type, 1, 3)`);
  const token = (row: string) =>
    sql.raw(`(select token from search_owners where user_id = ${row}.user_id)`);

  await sql`create trigger uploads_fts_insert after insert on uploads begin
    ${addOwner(sql.raw('new.user_id'))};
    insert into uploads_fts (rowid, body, owner, kind)
    values (new.rowid, ${body('new')}, ${token('new')}, ${kind('new')}); end`.execute(db);
  await sql`create trigger uploads_fts_delete after delete on uploads begin
    delete from uploads_fts where rowid = old.rowid; end`.execute(db);
  await sql`create trigger uploads_fts_update after update of original_filename, vanity_url, file_type on uploads begin
    update uploads_fts set body = ${body('new')}, kind = ${kind('new')} where rowid = new.rowid; end`.execute(
    db,
  );
  // search_owners rows outlive their users, so a number (and token) is never given twice.

  // Existing uploads, oldest owner first.
  const owners = await sql<{ user_id: string }>`select user_id from uploads
    group by user_id order by min(created_at)`.execute(db);
  for (const { user_id } of owners.rows) {
    await addOwner(sql`${user_id}`).execute(db);
  }
  await sql`insert into uploads_fts (rowid, body, owner, kind)
    select u.rowid, ${body('u')}, o.token, ${kind('u')}
    from uploads u join search_owners o on o.user_id = u.user_id`.execute(db);
}

async function postgresUp(db: Kysely<unknown>): Promise<void> {
  await sql`create table upload_search (
    upload_id text primary key references uploads (id) on delete cascade,
    user_id text not null,
    file_type text not null,
    body text not null
  )`.execute(db);
  await sql`insert into upload_search (upload_id, user_id, file_type, body)
    select id, user_id, file_type, lower(original_filename || chr(10) || coalesce(vanity_url, ''))
    from uploads`.execute(db);
  // Owner and trigrams in one GIN index (btree_gin): a count reads only the owner's matches,
  // and a term too short for trigrams still narrows to the owner's rows.
  await sql`create extension if not exists btree_gin`.execute(db);
  await sql`create index upload_search_user_body_idx on upload_search
    using gin (user_id, body gin_trgm_ops)`.execute(db);
  await sql`create function upload_search_sync() returns trigger language plpgsql as $$
    begin
      insert into upload_search (upload_id, user_id, file_type, body)
      values (new.id, new.user_id, new.file_type,
              lower(new.original_filename || chr(10) || coalesce(new.vanity_url, '')))
      on conflict (upload_id) do update set file_type = excluded.file_type, body = excluded.body;
      return null;
    end $$`.execute(db);
  await sql`create trigger uploads_search_sync
    after insert or update of original_filename, vanity_url, file_type on uploads
    for each row execute function upload_search_sync()`.execute(db);
  await sql`drop index uploads_filename_trgm_idx`.execute(db);
  await sql`drop index uploads_vanity_trgm_idx`.execute(db);
  // A page of a common term walks the sort order's index and tests this expression on each
  // row; statistics on it let the planner see that a page fills quickly (without them it
  // guesses a few matches and scans and sorts the whole table).
  await sql`create statistics uploads_search_text_stats
    on (lower(original_filename || chr(10) || coalesce(vanity_url, ''))) from uploads`.execute(db);
  await sql`analyze uploads`.execute(db);
  await sql`analyze upload_search`.execute(db);
}
