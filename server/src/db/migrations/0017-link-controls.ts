import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Link controls:
 * - uploads.expires_at: when the link stops working (null: never);
 * - uploads.max_views, views_used: a view limit and the views spent against it, claimed one at
 *   a time by a conditional update (exact on both engines and across instances);
 * - uploads.last_view_at: when the last such view was claimed (a used-up upload is deleted once
 *   the last viewer's download can no longer go on);
 * - uploads.password_hash: an argon2id hash (null: no password);
 * - chunked_uploads: the same asked at init, applied when the upload is made;
 * - user_preferences: the defaults for new uploads.
 * Partial indexes let the sweep find expired and used-up uploads without reading the others.
 */
export const m0017LinkControls: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('uploads').addColumn('expires_at', 'text').execute();
    await db.schema.alterTable('uploads').addColumn('max_views', 'integer').execute();
    await db.schema
      .alterTable('uploads')
      .addColumn('views_used', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('uploads').addColumn('last_view_at', 'text').execute();
    await db.schema.alterTable('uploads').addColumn('password_hash', 'text').execute();
    await db.schema
      .createIndex('uploads_expires_idx')
      .on('uploads')
      .column('expires_at')
      .where(sql<boolean>`expires_at is not null`)
      .execute();
    // Only the used-up rows: with a default view limit, most uploads may have one.
    await db.schema
      .createIndex('uploads_used_up_idx')
      .on('uploads')
      .column('last_view_at')
      .where(sql<boolean>`max_views is not null and views_used >= max_views`)
      .execute();

    // What a session's upload will get: the expiry as asked (a duration counts from completion).
    await db.schema.alterTable('chunked_uploads').addColumn('link_expires', 'text').execute();
    await db.schema.alterTable('chunked_uploads').addColumn('max_views', 'integer').execute();
    await db.schema.alterTable('chunked_uploads').addColumn('password_hash', 'text').execute();

    await db.schema
      .alterTable('user_preferences')
      .addColumn('default_expiry', 'text', (c) => c.notNull().defaultTo('never'))
      .execute();
    await db.schema
      .alterTable('user_preferences')
      .addColumn('default_max_views', 'integer')
      .execute();
  },
};
