/**
 * What serving a link reads of its upload, and the views it writes. Every lookup reads the
 * database: a link changed or deleted anywhere is answered as it is now from the next request.
 */
import { prepared, type Db } from '../../db/database.ts';
import type { UploadRow } from '../../db/schema.ts';
import { turnBatcher } from '../../lib/turn-batcher.ts';
import type { GatedRow } from './policy.ts';

/** What the gate reads of an upload (policy.ts). */
const GATED = [
  'uploads.id',
  'uploads.user_id',
  'uploads.is_public',
  'uploads.expires_at',
  'uploads.max_views',
  'uploads.views_used',
  'uploads.password_hash',
] as const;

/** The columns of LinkRow. */
const SERVED = [
  ...GATED,
  'uploads.mime_type',
  'uploads.original_filename',
  'uploads.created_at',
  'uploads.size',
  'uploads.storage_key',
] as const;

/** What serving a file needs of its upload. */
export type LinkRow = GatedRow &
  Pick<UploadRow, 'mime_type' | 'original_filename' | 'created_at' | 'size' | 'storage_key'>;

/**
 * What a preview page and its embeds need of an upload: beside the file's, its short code and
 * thumbnail (a video's picture), its size in pixels, and its owner's name.
 */
export type PreviewRow = LinkRow &
  Pick<UploadRow, 'short_code' | 'thumbnail_status' | 'width' | 'height'> & { username: string };

/** What serving a thumbnail needs of its upload. */
export type ThumbnailRow = GatedRow & Pick<UploadRow, 'thumbnail_status' | 'thumbnail_key'>;

/** Entries in key order: rows are locked in id order (see addViews). */
const byKey = <T>([a]: [string, T], [b]: [string, T]) => (a < b ? -1 : a > b ? 1 : 0);

/** The most slugs one lookup query names. */
const LINK_BATCH = 128;

export type LinksRepository = ReturnType<typeof createLinksRepository>;

export function createLinksRepository(db: Db) {
  /** The uploads behind these (lower-cased) slugs: one indexed query per LINK_BATCH slugs. */
  async function findLinks(slugs: string[]): Promise<Map<string, LinkRow>> {
    const found = new Map<string, LinkRow>();
    for (let i = 0; i < slugs.length; i += LINK_BATCH) {
      const query = db
        .selectFrom('slugs')
        .innerJoin('uploads', 'uploads.id', 'slugs.upload_id')
        .select(['slugs.slug', ...SERVED])
        .where('slugs.slug', 'in', slugs.slice(i, i + LINK_BATCH))
        .compile();
      // It runs for nearly every download: PostgreSQL plans it once per connection and size.
      const { rows } = await db.executeQuery(prepared(query));
      for (const { slug, ...row } of rows) found.set(slug, row);
    }
    return found;
  }

  // The lookups of the downloads that arrive in one turn of the event loop share one query
  // (one at a time; those that arrive meanwhile share the next).
  const lookUp = turnBatcher<{ slug: string; row?: LinkRow }>(async (items) => {
    const rows = await findLinks([...new Set(items.map((item) => item.slug))]);
    for (const item of items) item.row = rows.get(item.slug);
  });

  return {
    /** The upload behind a link's path segment: a vanity URL in any case, or a short code. */
    async findLink(slug: string): Promise<LinkRow | undefined> {
      const item: { slug: string; row?: LinkRow } = { slug: slug.toLowerCase() };
      await lookUp(item);
      return item.row;
    },

    /** The upload behind a preview page's slug (one query; pages are not downloads). */
    findPreview(slug: string): Promise<PreviewRow | undefined> {
      return db
        .selectFrom('slugs')
        .innerJoin('uploads', 'uploads.id', 'slugs.upload_id')
        .innerJoin('users', 'users.id', 'uploads.user_id')
        .select([
          ...SERVED,
          'uploads.short_code',
          'uploads.thumbnail_status',
          'uploads.width',
          'uploads.height',
          'users.username',
        ])
        .where('slugs.slug', '=', slug.toLowerCase())
        .executeTakeFirst();
    },

    findThumbnail(shortCode: string): Promise<ThumbnailRow | undefined> {
      return db
        .selectFrom('uploads')
        .select([...GATED, 'uploads.thumbnail_status', 'uploads.thumbnail_key'])
        .where('short_code', '=', shortCode.toLowerCase())
        .executeTakeFirst();
    },

    /**
     * Spends one view of a view-limited link: true when one was left (and the link had not
     * expired by `now`). One conditional update, so every view is counted exactly, whatever
     * reads it concurrently, on any instance.
     */
    async claimView(id: string, now: string): Promise<boolean> {
      const res = await db
        .updateTable('uploads')
        .set((eb) => ({ views_used: eb('views_used', '+', 1), last_view_at: now }))
        .where('id', '=', id)
        .where('max_views', 'is not', null)
        .where((eb) => eb('views_used', '<', eb.ref('max_views')))
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /**
     * Adds views (upload id to count) to the uploads and to their owners' totals, in one
     * transaction. In id order, so that the batches of several instances lock rows in the same
     * order: the uploads first, then their owners. An upload deleted meanwhile counts nowhere.
     */
    async addViews(counts: ReadonlyMap<string, number>): Promise<void> {
      if (counts.size === 0) return;
      await db.transaction().execute(async (trx) => {
        const owners = new Map<string, number>();
        for (const [id, n] of [...counts].sort(byKey)) {
          const row = await trx
            .updateTable('uploads')
            .set((eb) => ({ views: eb('views', '+', n) }))
            .where('id', '=', id)
            .returning('user_id')
            .executeTakeFirst();
          if (row) owners.set(row.user_id, (owners.get(row.user_id) ?? 0) + n);
        }
        for (const [userId, n] of [...owners].sort(byKey)) {
          await trx
            .updateTable('users')
            .set((eb) => ({ view_count: eb('view_count', '+', n) }))
            .where('id', '=', userId)
            .execute();
        }
      });
    },
  };
}
