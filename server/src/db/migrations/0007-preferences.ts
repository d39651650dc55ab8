import { sql, type Kysely, type Migration } from 'kysely';

/** user_preferences: one row per user who changed a preference; the others have the defaults. */
export const m0007Preferences: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_preferences')
      .addColumn('user_id', 'text', (c) =>
        c.primaryKey().references('users.id').onDelete('cascade'),
      )
      .addColumn('default_upload_public', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('email_notifications', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('theme', 'text', (c) =>
        c
          .notNull()
          .defaultTo('system')
          .check(sql`theme in ('system', 'light', 'dark')`),
      )
      .addColumn('uploads_per_page', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(20)
          .check(sql`uploads_per_page between 10 and 100`),
      )
      .execute();
  },
};
