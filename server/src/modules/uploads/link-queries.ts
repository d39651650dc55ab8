/**
 * Part of the uploads repository: the queries on an upload's link settings (privacy, expiry,
 * view limit, password), and the dead links the sweep deletes.
 */
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database, UploadRow } from '../../db/schema.ts';
import type { LinkColumns } from './link-settings.ts';

/**
 * Changes an upload's link columns; undefined when it is gone. A view limit set where there
 * was none counts from 0, and a changed one keeps the views used; no limit forgets them.
 */
export async function updateLink(
  db: Db,
  id: string,
  columns: Partial<LinkColumns>,
): Promise<UploadRow | undefined> {
  const { max_views: maxViews, ...rest } = columns;
  return db
    .updateTable('uploads')
    .set((eb) => ({
      ...rest,
      ...(maxViews === undefined
        ? {}
        : maxViews === null
          ? { max_views: null, views_used: 0, last_view_at: null }
          : {
              max_views: maxViews,
              // Every expression reads the row as it was before this update.
              views_used: eb
                .case()
                .when('max_views', 'is', null)
                .then(0)
                .else(eb.ref('views_used'))
                .end(),
            }),
    }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Makes uploads (only ownerId's, unless null) public or private; answers those it changed. */
export async function setPrivacy(
  db: Db,
  ids: string[],
  ownerId: string | null,
  isPublic: boolean,
): Promise<UploadRow[]> {
  if (ids.length === 0) return [];
  let q = db
    .updateTable('uploads')
    .set({ is_public: isPublic ? 1 : 0 })
    .where('id', 'in', ids);
  if (ownerId !== null) q = q.where('user_id', '=', ownerId);
  return q.returningAll().execute();
}

/** When a link counts as dead: expired by `now`, or used up with no view since `lastViewBefore`. */
export type DeadLinkTimes = { now: string; lastViewBefore: string };

/** Whether an uploads row's link is dead at these times (the sweep's condition). */
export function isDeadLink(times: DeadLinkTimes) {
  return (eb: ExpressionBuilder<Database, 'uploads'>) =>
    eb.or([
      eb('expires_at', '<=', times.now),
      eb.and([
        eb('max_views', 'is not', null),
        eb('views_used', '>=', eb.ref('max_views')),
        eb.or([eb('last_view_at', 'is', null), eb('last_view_at', '<=', times.lastViewBefore)]),
      ]),
    ]);
}

/**
 * Uploads whose links are dead, at most `limit` of each kind (the next run takes the rest):
 * one query per kind, each walking its own partial index.
 */
export async function deadLinkIds(db: Db, times: DeadLinkTimes, limit = 500): Promise<string[]> {
  const expired = await db
    .selectFrom('uploads')
    .select('id')
    .where('expires_at', '<=', times.now)
    .limit(limit)
    .execute();
  const usedUp = await db
    .selectFrom('uploads')
    .select('id')
    .where('max_views', 'is not', null)
    .where((eb) => eb('views_used', '>=', eb.ref('max_views')))
    .where((eb) =>
      eb.or([eb('last_view_at', 'is', null), eb('last_view_at', '<=', times.lastViewBefore)]),
    )
    .limit(limit)
    .execute();
  return [...new Set([...expired, ...usedUp].map((r) => r.id))];
}
