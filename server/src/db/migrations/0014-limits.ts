import { sql, type Kysely, type Migration } from 'kysely';

/**
 * - users.tag_count: the user's tags, kept by the statement that creates one (only while it is
 *   below the limit) and the one that deletes one, so two creations cannot pass the limit
 *   together; filled from the existing tags.
 * - users.disk_used becomes what the uploads are charged: each at least one 4 KiB block
 *   (MIN_CHARGE_BYTES), as the uploads repository charges and refunds from now on.
 */
export const m0014Limits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('tag_count', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update users set tag_count =
      (select count(*) from tags where tags.user_id = users.id)`.execute(db);
    // The constant is written out: a migration does what it did when it was written.
    await sql`update users set disk_used = coalesce((select sum(
      case when size < 4096 then 4096 else size end) from uploads
      where uploads.user_id = users.id), 0)`.execute(db);
  },
};
