import type { Kysely, Migration } from 'kysely';

/** user_preferences.strip_metadata: new pictures lose their EXIF, XMP and IPTC (on by default). */
export const m0018StripMetadata: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('user_preferences')
      .addColumn('strip_metadata', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  },
};
