import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A chunked session reserves its whole charge against its owner's quota when it opens:
 * - chunked_uploads.reserved: what the session holds (0 once released or turned into the
 *   upload's charge);
 * - users.disk_reserved: the sum of its open sessions' reservations, which every charge is
 *   checked against beside disk_used.
 * Sessions already open are given their reservation (even past the quota: they were let in).
 */
export const m0016SessionReservations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('chunked_uploads')
      .addColumn('reserved', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('users')
      .addColumn('disk_reserved', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    // The constant (MIN_CHARGE_BYTES) written out: a migration does what it did when written.
    await sql`update chunked_uploads set reserved =
      case when total_size < 4096 then 4096 else total_size end
      where status <> 'completed'`.execute(db);
    await sql`update users set disk_reserved = coalesce((select sum(reserved)
      from chunked_uploads where chunked_uploads.user_id = users.id), 0)`.execute(db);
  },
};
