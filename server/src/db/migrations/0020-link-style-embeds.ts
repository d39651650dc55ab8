import { sql, type Kysely, type Migration } from 'kysely';

/**
 * user_preferences: which link a user's clients hand out (the raw file, or its preview page),
 * and how the user's links present themselves in chat apps: a title template, a site name and
 * a colour.
 */
export const m0020LinkStyleEmbeds: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('user_preferences')
      .addColumn('link_style', 'text', (c) =>
        c
          .notNull()
          .defaultTo('raw')
          .check(sql`link_style in ('raw', 'preview')`),
      )
      .execute();
    await db.schema
      .alterTable('user_preferences')
      .addColumn('embed_title', 'text', (c) => c.notNull().defaultTo('{filename}'))
      .execute();
    await db.schema
      .alterTable('user_preferences')
      .addColumn('embed_site_name', 'text', (c) => c.notNull().defaultTo('Upshot'))
      .execute();
    await db.schema
      .alterTable('user_preferences')
      .addColumn('embed_color', 'text', (c) => c.notNull().defaultTo('#0a0a0a'))
      .execute();
  },
};
