import { SqliteAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * Drops what 0011 made for keeping links in memory on PostgreSQL: the change count, the leases,
 * the marks, their triggers and functions. Every link is read from the database again, so a
 * change is answered once it commits and no instance waits on another (docs/decisions).
 */
export const m0012DropLinkChanges: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    for (const trigger of [
      'uploads_link_touched on uploads',
      'slugs_link_touched on slugs',
      'uploads_link_truncated on uploads',
      'slugs_link_truncated on slugs',
    ]) {
      await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
    }
    await sql`drop table if exists link_change_marks`.execute(db);
    await sql`drop table if exists link_cache_leases`.execute(db);
    await sql`drop table if exists link_changes`.execute(db);
    await sql`drop function if exists upshot_link_touched()`.execute(db);
    await sql`drop function if exists upshot_link_changed()`.execute(db);
    await sql`drop function if exists upshot_renew_link_lease(text, bigint, double precision)`.execute(
      db,
    );
  },
};
