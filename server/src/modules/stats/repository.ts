/**
 * The statistics' queries. None scans uploads: totals come from the users' rows, types and
 * days from the summary rows the uploads repository keeps in the same transactions as the
 * uploads and views (migration 0006), lists from indexes that stop after a few rows.
 */
import { MIN_CHARGE_BYTES } from '@upshot/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export type StatsRepository = ReturnType<typeof createStatsRepository>;
export type DayRow = { day: string; count: number; bytes: number };

/** What an upload is charged against the quota, in SQL (chargedBytes of its size). */
const charged = sql`case when size < ${sql.lit(MIN_CHARGE_BYTES)} then ${sql.lit(MIN_CHARGE_BYTES)} else size end`;

export function createStatsRepository(db: Db) {
  return {
    async userTotals(userId: string) {
      const row = await db
        .selectFrom('users')
        .select(['upload_count', 'view_count', 'disk_used'])
        .where('id', '=', userId)
        .executeTakeFirst();
      return {
        uploads: Number(row?.upload_count ?? 0),
        views: Number(row?.view_count ?? 0),
        bytes: Number(row?.disk_used ?? 0),
      };
    },

    /** The user's most viewed uploads with at least one view (the owner-views index). */
    mostViewed(userId: string, limit: number) {
      return db
        .selectFrom('uploads')
        .select([
          'id',
          'original_filename',
          'views',
          'short_code',
          'vanity_url',
          'is_public',
          'max_views',
        ])
        .select((eb) => eb('password_hash', 'is not', null).as('has_password'))
        .where('user_id', '=', userId)
        .where('views', '>', 0)
        .orderBy('views', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    async typeCounts(userId: string) {
      const rows = await db
        .selectFrom('user_type_counts')
        .select(['file_type', 'count'])
        .where('user_id', '=', userId)
        .where('count', '>', 0)
        .execute();
      return rows.map((r) => ({ type: r.file_type, count: Number(r.count) }));
    },

    /** The user's days from `from` (YYYY-MM-DD) on; or everyone's, summed, when userId is null. */
    async days(userId: string | null, from: string): Promise<DayRow[]> {
      const rows =
        userId === null
          ? await db
              .selectFrom('user_daily_uploads')
              .select([
                'day',
                sql<number>`sum(count)`.as('count'),
                sql<number>`sum(bytes)`.as('bytes'),
              ])
              .where('day', '>=', from)
              .groupBy('day')
              .execute()
          : await db
              .selectFrom('user_daily_uploads')
              .select(['day', 'count', 'bytes'])
              .where('user_id', '=', userId)
              .where('day', '>=', from)
              .execute();
      return rows.map((r) => ({ day: r.day, count: Number(r.count), bytes: Number(r.bytes) }));
    },

    async instanceTotals() {
      const row = await db
        .selectFrom('users')
        .select((eb) => [
          eb.fn.countAll<number>().as('users'),
          sql<number>`coalesce(sum(upload_count), 0)`.as('uploads'),
          sql<number>`coalesce(sum(view_count), 0)`.as('views'),
          sql<number>`coalesce(sum(disk_used), 0)`.as('bytes'),
        ])
        .executeTakeFirstOrThrow();
      return {
        users: Number(row.users),
        uploads: Number(row.uploads),
        views: Number(row.views),
        bytes: Number(row.bytes),
      };
    },

    /** The users with the most uploads (the upload-count index). */
    mostActiveUsers(limit: number) {
      return db
        .selectFrom('users')
        .select(['id', 'username', 'upload_count'])
        .where('upload_count', '>', 0)
        .orderBy('upload_count', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    /** Everyone's latest uploads (the created-at index). */
    recentUploads(limit: number) {
      return db
        .selectFrom('uploads')
        .innerJoin('users', 'users.id', 'uploads.user_id')
        .select(['uploads.id', 'uploads.original_filename', 'uploads.created_at', 'users.username'])
        .orderBy('uploads.created_at', 'desc')
        .orderBy('uploads.id', 'desc')
        .limit(limit)
        .execute();
    },

    /**
     * Rebuilds every summary row from the uploads themselves: after rows were written around
     * the uploads repository (a bulk import, the benchmarks' seeding). One transaction.
     */
    async rebuild(): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await sql`update users set
          upload_count = (select count(*) from uploads where uploads.user_id = users.id),
          disk_used = coalesce((select sum(${charged}) from uploads where uploads.user_id = users.id), 0),
          view_count = coalesce((select sum(views) from uploads where uploads.user_id = users.id), 0)`.execute(
          trx,
        );
        await sql`delete from user_type_counts`.execute(trx);
        await sql`insert into user_type_counts (user_id, file_type, count)
          select user_id, file_type, count(*) from uploads group by user_id, file_type`.execute(
          trx,
        );
        await sql`delete from user_daily_uploads`.execute(trx);
        await sql`insert into user_daily_uploads (user_id, day, count, bytes)
          select user_id, substr(created_at, 1, 10), count(*), sum(size) from uploads
          group by user_id, substr(created_at, 1, 10)`.execute(trx);
      });
    },
  };
}
