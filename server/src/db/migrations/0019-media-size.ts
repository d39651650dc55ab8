import type { Kysely, Migration } from 'kysely';

/**
 * uploads.width, uploads.height: a picture's or a video's size in pixels (as shown, after its
 * orientation), recorded when its thumbnail is made; null until then, and for other files. The
 * preview page's tags and oEmbed answer give them to chat apps, which size an embed by them.
 */
export const m0019MediaSize: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('uploads').addColumn('width', 'integer').execute();
    await db.schema.alterTable('uploads').addColumn('height', 'integer').execute();
  },
};
