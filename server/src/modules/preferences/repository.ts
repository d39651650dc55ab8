/** Every SQL query on preferences: one row per user who changed one. */
import type { Db } from '../../db/database.ts';
import type { PreferencesRow } from '../../db/schema.ts';

export type PreferencesRepository = ReturnType<typeof createPreferencesRepository>;

export function createPreferencesRepository(db: Db) {
  return {
    find(userId: string): Promise<PreferencesRow | undefined> {
      return db
        .selectFrom('user_preferences')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    /** Writes the whole row (made from the current values and the change) in one statement. */
    async save(row: PreferencesRow): Promise<void> {
      const values = {
        default_upload_public: row.default_upload_public,
        email_notifications: row.email_notifications,
        theme: row.theme,
        uploads_per_page: row.uploads_per_page,
        default_expiry: row.default_expiry,
        default_max_views: row.default_max_views,
        strip_metadata: row.strip_metadata,
        link_style: row.link_style,
        embed_title: row.embed_title,
        embed_site_name: row.embed_site_name,
        embed_color: row.embed_color,
      };
      await db
        .insertInto('user_preferences')
        .values(row)
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
    },
  };
}
