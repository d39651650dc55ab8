import { sql, type Kysely, type Migration } from 'kysely';

/**
 * key_check: one row (id 1) holding a digest of the secret key the database is used with, so
 * that an instance started with another key stops at once instead of refusing, one by one, the
 * API tokens and signed links the others made. A digest, never the key.
 */
export const m0010KeyCheck: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('key_check')
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('digest', 'text', (c) => c.notNull())
      .addColumn('recorded_at', 'text', (c) => c.notNull())
      .execute();
  },
};
