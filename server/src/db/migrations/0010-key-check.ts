import type { Kysely, Migration } from 'kysely';

/**
 * key_check: a digest of the secret key the database is used with (one row), so that an
 * instance started with another key stops at once instead of refusing, one by one, the API
 * tokens and signed links the others made. A digest, never the key.
 */
export const m0010KeyCheck: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('key_check')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('digest', 'text', (c) => c.notNull())
      .addColumn('recorded_at', 'text', (c) => c.notNull())
      .execute();
  },
};
