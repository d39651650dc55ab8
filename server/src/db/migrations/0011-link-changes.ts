import { SqliteAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * What lets each PostgreSQL instance keep the links it serves in memory (uploads/link-cache.ts)
 * and still stop serving a deleted or changed link before the change is answered. Nothing on
 * SQLite: one process serves it, and its lookup costs no round trip.
 *
 * - link_changes: one row (id 1) counting the committed changes to what serving reads of a
 *   link (an upload deleted, a column serving reads changed, a slug deleted or moved). Deferred
 *   triggers on uploads and slugs add one per transaction at its commit, whoever made it (an
 *   operator's SQL too), and notify channel upshot_links with the new count.
 * - link_cache_leases: per instance, until when it may answer from its memory (`until`, by the
 *   database's clock) and the last change it has dropped its memory for (`acked`). Whoever
 *   made a change waits, before answering, until every instance holding a lease has acked it
 *   or its lease has run out.
 * - upshot_renew_link_lease(instance, acked, seconds): records acked and extends the lease
 *   only when no change is newer than acked; it reads the count under a share lock, so a change
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

    // Once per transaction (a transaction-local setting remembers it), at its commit: the
    // count's row lock is the last lock the transaction takes, so it cannot wait in a cycle.
    await sql`create function upshot_link_changed() returns trigger language plpgsql as $$
      declare
        changed bigint;
      begin
        if current_setting('upshot.link_changed', true) = 'y' then
          return null;
        end if;
        perform set_config('upshot.link_changed', 'y', true);
        update link_changes set seq = seq + 1 where id = 1 returning seq into changed;
        perform pg_notify('upshot_links', changed::text);
        return null;
      end
    $$`.execute(db);
    // The columns uploads/repository.ts's LinkRow reads, and every slug change. A new slug
    // needs nothing: a slug nobody had is never kept.
    await sql`create constraint trigger uploads_link_changed
      after delete or update of id, user_id, is_public, mime_type, original_filename,
        created_at, size, storage_key
      on uploads deferrable initially deferred
      for each row execute function upshot_link_changed()`.execute(db);
    await sql`create constraint trigger slugs_link_changed
      after delete or update on slugs deferrable initially deferred
      for each row execute function upshot_link_changed()`.execute(db);

    await sql`create function upshot_renew_link_lease(
        p_instance text, p_acked bigint, p_seconds double precision
      ) returns boolean language plpgsql as $$
      declare
        current bigint;
        renewed boolean;
      begin
        select seq into current from link_changes where id = 1 for share;
        renewed := current <= p_acked;
        insert into link_cache_leases as l (instance, until, acked)
          values (
            p_instance,
            case when renewed then now() + p_seconds * interval '1 second' else '-infinity' end,
            p_acked
          )
          on conflict (instance) do update set
            acked = excluded.acked,
            until = case when renewed then excluded.until else l.until end;
        -- Instances gone without a word (killed) leave a lease that ran out long ago.
        delete from link_cache_leases
          where until < now() - interval '1 hour' and instance <> p_instance;
        return renewed;
      end
    $$`.execute(db);
  },
};
