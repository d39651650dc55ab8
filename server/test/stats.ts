/**
 * What the statistics should say, counted straight from the uploads table (never from the
 * summary rows the server keeps), and checks of "top n" lists that allow any order among ties.
 */
import { MIN_CHARGE_BYTES } from '@upshot/contract';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../src/db/database.ts';
import type { TestContext } from './context.ts';

type Auth = Record<string, string>;
/** A signed-in user, as signIn() answers. */
export type Actor = { user: { id: string; username: string }; auth: Auth };

export const DAY_MS = 24 * 60 * 60 * 1000;

export type DayCount = { date: string; count: number; bytes: number };

/** The 30 UTC days that end with now's, oldest first. */
export function last30Days(now: Date): string[] {
  return Array.from({ length: 30 }, (_, i) =>
    new Date(now.getTime() - (29 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

/** Moves the clock on to 12:00 UTC of the next day, so a test never crosses midnight. */
export function toNoon(clock: { now: () => Date; advance: (ms: number) => void }): void {
  const now = clock.now();
  const noon = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 12);
  clock.advance(noon - now.getTime());
}

export type Recount = {
  uploads: number;
  /** What the uploads are charged against the quota (Storage Used). */
  bytes: number;
  views: number;
  /** By type group name. */
  types: { type: string; count: number }[];
  /** Every day with uploads, by date, with the sum of their sizes. */
  days: Map<string, { count: number; bytes: number }>;
};

/** What an upload is charged: at least MIN_CHARGE_BYTES. */
const charged = sql`case when size < ${sql.lit(MIN_CHARGE_BYTES)} then ${sql.lit(MIN_CHARGE_BYTES)} else size end`;

/** Counts one user's uploads (or everyone's, userId null) from the uploads table. */
export async function recount(db: Db, userId: string | null): Promise<Recount> {
  const uploads = () =>
    userId === null
      ? db.selectFrom('uploads')
      : db.selectFrom('uploads').where('user_id', '=', userId);
  const totals = await uploads()
    .select([
      sql<number>`count(*)`.as('n'),
      sql<number>`coalesce(sum(${charged}), 0)`.as('bytes'),
      sql<number>`coalesce(sum(views), 0)`.as('views'),
    ])
    .executeTakeFirstOrThrow();
  const types = await uploads()
    .select(['file_type', sql<number>`count(*)`.as('n')])
    .groupBy('file_type')
    .execute();
  const day = sql<string>`substr(created_at, 1, 10)`;
  const days = await uploads()
    .select([day.as('day'), sql<number>`count(*)`.as('n'), sql<number>`sum(size)`.as('bytes')])
    .groupBy(day)
    .execute();
  return {
    uploads: Number(totals.n),
    bytes: Number(totals.bytes),
    views: Number(totals.views),
    types: types
      .map((t) => ({ type: t.file_type, count: Number(t.n) }))
      .sort((a, b) => (a.type < b.type ? -1 : 1)),
    days: new Map(days.map((d) => [d.day, { count: Number(d.n), bytes: Number(d.bytes) }])),
  };
}

/** The uploads-per-day series the recount implies for the 30 days ending now. */
export function seriesOf(r: Recount, now: Date): DayCount[] {
  return last30Days(now).map((date) => ({
    date,
    count: r.days.get(date)?.count ?? 0,
    bytes: r.days.get(date)?.bytes ?? 0,
  }));
}

/** A type breakdown in name order, to compare with a recount whatever order it came in. */
export const byType = (types: { type: string; count: number }[]) =>
  [...types].sort((a, b) => (a.type < b.type ? -1 : 1));

/**
 * `actual` is a top-`limit` list of `all` by `score`, highest first: its items are items of
 * `all` (deep-equal, found by `id`), its scores do not increase, and they are the highest
 * scores of `all` (which of several tied items comes is not checked).
 */
export function expectTop<T>(
  actual: T[],
  all: T[],
  score: (t: T) => number,
  id: (t: T) => string,
  limit: number,
  label = '',
): void {
  expect(actual.length, `${label} length`).toBe(Math.min(limit, all.length));
  for (const item of actual) {
    expect(item, label).toEqual(all.find((a) => id(a) === id(item)));
  }
  expect(new Set(actual.map(id)).size, `${label} distinct`).toBe(actual.length);
  const scores = actual.map(score);
  expect(scores, `${label} scores`).toEqual(
    all
      .map(score)
      .sort((a, b) => b - a)
      .slice(0, limit),
  );
}

/** GET as the given user; expects 200 and answers the body. */
export async function getJson(ctx: TestContext, auth: Auth, url: string) {
  const res = await ctx.app.inject({ method: 'GET', url, headers: auth });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
}

/** Every upload row, as the statistics present them. */
export async function uploadRows(ctx: TestContext) {
  return ctx.handle.db
    .selectFrom('uploads')
    .innerJoin('users', 'users.id', 'uploads.user_id')
    .select([
      'uploads.id',
      'uploads.user_id',
      'users.username',
      'uploads.original_filename',
      'uploads.short_code',
      'uploads.views',
      'uploads.is_public',
      'uploads.created_at',
      'uploads.max_views',
      'uploads.password_hash',
    ])
    .execute();
}

/** The summary tables, read directly: only the non-zero rows. */
export async function summaries(ctx: TestContext, userId: string): Promise<Recount> {
  const db = ctx.handle.db;
  const types = await db
    .selectFrom('user_type_counts')
    .select(['file_type', 'count'])
    .where('user_id', '=', userId)
    .execute();
  const days = await db
    .selectFrom('user_daily_uploads')
    .select(['day', 'count', 'bytes'])
    .where('user_id', '=', userId)
    .execute();
  const user = await db
    .selectFrom('users')
    .select(['upload_count', 'disk_used', 'view_count'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    uploads: Number(user.upload_count),
    bytes: Number(user.disk_used),
    views: Number(user.view_count),
    types: byType(
      types
        .filter((t) => Number(t.count) !== 0)
        .map((t) => ({ type: t.file_type, count: Number(t.count) })),
    ),
    days: new Map(
      days
        .filter((d) => Number(d.count) !== 0 || Number(d.bytes) !== 0)
        .map((d) => [d.day, { count: Number(d.count), bytes: Number(d.bytes) }]),
    ),
  };
}

/** /api/stats of each actor and /api/stats/admin agree with a recount, and so do the tables. */
export async function expectStatsAgree(
  ctx: TestContext,
  actors: Actor[],
  admin: Actor,
  label: string,
): Promise<void> {
  const now = ctx.clock.now();
  const all = await uploadRows(ctx);
  for (const actor of actors) {
    const r = await recount(ctx.handle.db, actor.user.id);
    const body = await getJson(ctx, actor.auth, '/api/stats');
    const who = `${label} ${actor.user.username}`;
    expect(
      {
        totalUploads: body.totalUploads,
        totalSize: body.totalSize,
        totalViews: body.totalViews,
        fileTypeBreakdown: byType(body.fileTypeBreakdown),
        uploadsPerDay: body.uploadsPerDay,
      },
      who,
    ).toEqual({
      totalUploads: r.uploads,
      totalSize: r.bytes,
      totalViews: r.views,
      fileTypeBreakdown: r.types,
      uploadsPerDay: seriesOf(r, now),
    });
    const viewed = all
      .filter((u) => u.user_id === actor.user.id && Number(u.views) > 0)
      .map((u) => ({
        id: u.id,
        filename: u.original_filename,
        views: Number(u.views),
        shortCode: u.short_code,
        url: `${ctx.config.publicUrl}/${u.short_code}`,
        isPublic: u.is_public === 1,
        maxViews: u.max_views === null ? null : Number(u.max_views),
        hasPassword: u.password_hash !== null,
      }));
    expectTop(
      body.mostViewed,
      viewed,
      (m) => m.views,
      (m) => m.id,
      5,
      `${who} mostViewed`,
    );
    // The summary rows themselves, every day included (not only the last 30).
    expect(await summaries(ctx, actor.user.id), `${who} tables`).toEqual(r);
  }

  const everyone = await recount(ctx.handle.db, null);
  const users = await ctx.handle.db.selectFrom('users').select(['id', 'username']).execute();
  const body = await getJson(ctx, admin.auth, '/api/stats/admin');
  expect(
    {
      totalUsers: body.totalUsers,
      totalUploads: body.totalUploads,
      totalViews: body.totalViews,
      totalStorage: body.totalStorage,
      uploadsPerDay: body.uploadsPerDay,
    },
    `${label} admin`,
  ).toEqual({
    totalUsers: users.length,
    totalUploads: everyone.uploads,
    totalViews: everyone.views,
    totalStorage: everyone.bytes,
    uploadsPerDay: seriesOf(everyone, now),
  });
  const active = users
    .map((u) => ({
      userId: u.id,
      username: u.username,
      uploadCount: all.filter((x) => x.user_id === u.id).length,
    }))
    .filter((u) => u.uploadCount > 0);
  expectTop(
    body.mostActiveUsers,
    active,
    (u) => u.uploadCount,
    (u) => u.userId,
    5,
    `${label} mostActiveUsers`,
  );
  const recent = all.map((u) => ({
    id: u.id,
    filename: u.original_filename,
    username: u.username,
    createdAt: u.created_at,
  }));
  expectTop(
    body.recentActivity,
    recent,
    (u) => Date.parse(u.createdAt),
    (u) => u.id,
    10,
    `${label} recentActivity`,
  );
}
