import { SqliteAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * What lets each PostgreSQL instance keep the links it serves in memory (uploads/link-cache.ts)
 * and still stop serving a deleted or changed link before the change is answered. Nothing on
 * SQLite: one process serves it, and its lookup costs no round trip.
 *
 * - link_changes: one row (id 1) counting the committed changes to what serving reads of a
 *   link (an upload deleted, a column serving reads changed, a slug deleted or moved, either
 *   table truncated). Triggers on uploads and slugs add one per transaction at its commit,
 *   whoever made it (an operator's SQL too), and notify channel upshot_links with the new count.
 * - link_cache_leases: per instance, until when it may answer from its memory (`until`, by the
 *   database's clock) and the last change it has dropped its memory for (`acked`). Whoever
 *   made a change waits, before answering, until every instance holding a lease has acked it
 *   or its lease has run out.
 * - upshot_renew_link_lease(instance, acked, seconds): records acked and extends the lease
 *   only when acked is the count now; it reads the count under a share lock, so a change
 *   committing meanwhile is either seen here or waits for this lease and then waits for its ack.
 */
export const m0011LinkChanges: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    await sql`create table link_changes (
      id integer primary key check (id = 1),
      seq bigint not null
    )`.execute(db);
    await sql`insert into link_changes (id, seq) values (1, 0)`.execute(db);
    await sql`create table link_cache_leases (
      instance text primary key,
      until timestamptz not null,
      acked bigint not null
    )`.execute(db);

    // A statement that changes what serving reads marks its transaction: one row in
    // link_change_marks per transaction (the statements after the first find it there), whose
    // deferred trigger counts and notifies the change at the commit. One deferred event per
    // transaction, however many rows it changed, and the count's row lock is the last lock it
    // takes, held only from that event to the commit, so it cannot wait in a cycle. The
    // functions run as their owner, on the schema they were made in: an operator's role, or
    // search_path, changing uploads by hand is counted the same.
    await sql`create table link_change_marks (txid bigint primary key)`.execute(db);
    await sql`create function upshot_link_touched() returns trigger language plpgsql
      security definer set search_path from current as $$
      begin
        insert into link_change_marks (txid) values (txid_current()) on conflict (txid) do nothing;
        return null;
      end
    $$`.execute(db);
    await sql`create function upshot_link_changed() returns trigger language plpgsql
      security definer set search_path from current as $$
      declare
        changed bigint;
      begin
        delete from link_change_marks where txid = new.txid;
        update link_changes set seq = seq + 1 where id = 1 returning seq into changed;
        perform pg_notify('upshot_links', changed::text);
        return null;
      end
    $$`.execute(db);
    await sql`create constraint trigger link_change_marks_counted
      after insert on link_change_marks deferrable initially deferred
      for each row execute function upshot_link_changed()`.execute(db);
    // The columns uploads/repository.ts's LinkRow reads, and every slug change; TRUNCATE too.
    // A new slug needs nothing: a slug nobody had is never kept.
    await sql`create trigger uploads_link_touched
      after delete or update of id, user_id, is_public, mime_type, original_filename,
        created_at, size, storage_key
      on uploads for each statement execute function upshot_link_touched()`.execute(db);
    await sql`create trigger slugs_link_touched
      after delete or update on slugs
      for each statement execute function upshot_link_touched()`.execute(db);
    for (const table of ['uploads', 'slugs']) {
      await sql`create trigger ${sql.raw(`${table}_link_truncated`)} after truncate on ${sql.table(table)}
        for each statement execute function upshot_link_touched()`.execute(db);
    }

    await sql`create function upshot_renew_link_lease(
        p_instance text, p_acked bigint, p_seconds double precision
      ) returns boolean language plpgsql as $$
      declare
        current bigint;
      begin
        select seq into current from link_changes where id = 1 for share;
        -- Equal, not "at most": a count that went back (a database restored, or failed over to a
        -- standby behind) is a change too, which the instance has to catch up with.
        if current = p_acked then
          insert into link_cache_leases (instance, until, acked)
            values (p_instance, now() + p_seconds * interval '1 second', p_acked)
            on conflict (instance) do update set until = excluded.until, acked = excluded.acked;
          -- Instances gone without a word (killed) leave a lease that ran out long ago; rows
          -- another renewal holds are left to a later one (no waiting on each other).
          delete from link_cache_leases where instance in (
            select instance from link_cache_leases
            where until < now() - interval '1 hour' and instance <> p_instance
            for update skip locked
          );
          return true;
        end if;
        -- Not renewed: the ack still moves on (a lease not yet held needs no row).
        update link_cache_leases set acked = p_acked where instance = p_instance;
        return false;
      end
    $$`.execute(db);
  },
};
