/** Migration 0006 fills the statistics' summary rows from the uploads made before it. */
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseEachTest } from '../../test/context.ts';
import { DAY_MS, recount, seriesOf, type Recount } from '../../test/stats.ts';
import { uploadRow } from '../../test/uploads.ts';
import { createStatsRepository } from '../modules/stats/repository.ts';
import { createStatsService } from '../modules/stats/service.ts';
import { createUploadsRepository } from '../modules/uploads/repository.ts';
import { migrateTo, migrateToLatest } from './migrate.ts';
import type { NewUploadRow } from './schema.ts';
import { uploadSearch } from './search.ts';

const fresh = freshDatabaseEachTest();

/** The schema as it was at an earlier migration: rows are written as plain objects. */
const legacy = () => fresh().db as unknown as Kysely<Record<string, Record<string, unknown>>>;

/** A users row as it was at 0005 (its upload counters are set beside its uploads). */
function legacyUser(name: string) {
  return {
    id: crypto.randomUUID(),
    email: `${name}@example.com`,
    email_key: `${name}@example.com`,
    username: name,
    username_key: name,
    role: 'user',
    is_active: 1,
    disk_quota: 10_000_000,
    password_hash: 'x',
    api_token_encrypted: `enc-${name}`,
    api_token_digest: `digest-${name}`,
    created_at: new Date().toISOString(),
  };
}

/** The summary rows 0006 made for a user, in the recount's shape (only non-zero rows). */
async function summaries(userId: string): Promise<Recount> {
  const db = fresh().db;
  const user = await db
    .selectFrom('users')
    .select(['upload_count', 'disk_used', 'view_count'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const types = await db
    .selectFrom('user_type_counts')
    .select(['file_type', 'count'])
    .where('user_id', '=', userId)
    .where('count', '!=', 0)
    .orderBy('file_type')
    .execute();
  const days = await db
    .selectFrom('user_daily_uploads')
    .select(['day', 'count', 'bytes'])
    .where('user_id', '=', userId)
    .where('count', '!=', 0)
    .execute();
  return {
    uploads: Number(user.upload_count),
    bytes: Number(user.disk_used),
    views: Number(user.view_count),
    types: types.map((t) => ({ type: t.file_type, count: Number(t.count) })),
    days: new Map(days.map((d) => [d.day, { count: Number(d.count), bytes: Number(d.bytes) }])),
  };
}

describe('0006-tags-stats', () => {
  it('fills the summary rows of uploads made before it, equal to a recount', async () => {
    await migrateTo(fresh(), '0005-clean-names');
    const now = Date.now();
    const at = (daysAgo: number, hour = 0) =>
      new Date(now - daysAgo * DAY_MS + hour * 60 * 60 * 1000).toISOString();
    const ann: NewUploadRow[] = [];
    const bob: NewUploadRow[] = [];
    const annUser = legacyUser('ann');
    const bobUser = legacyUser('bob');
    const idle = legacyUser('idle');
    const add = (list: NewUploadRow[], userId: string, fields: Partial<NewUploadRow>) =>
      list.push(uploadRow(userId, fields));
    add(ann, annUser.id, { file_type: 'images', size: 100, views: 3, created_at: at(0) });
    add(ann, annUser.id, { file_type: 'images', size: 150, views: 0, created_at: at(0, -1) });
    add(ann, annUser.id, { file_type: 'documents', size: 200, views: 10, created_at: at(2) });
    add(ann, annUser.id, { file_type: 'archives', size: 300, views: 1, created_at: at(40) });
    add(ann, annUser.id, { file_type: 'other', size: 0, views: 0, created_at: at(2) });
    add(bob, bobUser.id, { file_type: 'videos', size: 5000, views: 7, created_at: at(0) });
    add(bob, bobUser.id, { file_type: 'images', size: 20, views: 2, created_at: at(5) });
    add(bob, bobUser.id, { file_type: 'videos', size: 30, views: 0, created_at: at(5) });
    // The counters on the users row, as 0002-0005 kept them.
    const counters = (list: NewUploadRow[]) => ({
      disk_used: list.reduce((s, r) => s + Number(r.size), 0),
      upload_count: list.length,
    });
    await legacy()
      .insertInto('users')
      .values([
        { ...annUser, ...counters(ann) },
        { ...bobUser, ...counters(bob) },
        { ...idle, ...counters([]) },
      ])
      .execute();
    await legacy()
      .insertInto('uploads')
      .values([...ann, ...bob])
      .execute();

    expect((await migrateToLatest(fresh()))[0]).toBe('0006-tags-stats');

    for (const u of [annUser, bobUser, idle]) {
      const r = await recount(fresh().db, u.id);
      expect(await summaries(u.id), u.username).toEqual(r);
    }
    // Charged as 0014 charges them: each at least 4 KiB.
    expect(await summaries(annUser.id)).toMatchObject({
      uploads: 5,
      bytes: 5 * 4096,
      views: 14,
      types: [
        { type: 'archives', count: 1 },
        { type: 'documents', count: 1 },
        { type: 'images', count: 2 },
        { type: 'other', count: 1 },
      ],
    });
    expect(await summaries(idle.id)).toEqual({
      uploads: 0,
      bytes: 0,
      views: 0,
      types: [],
      days: new Map(),
    });

    // The statistics read from them, the same as a recount.
    const clock = { now: () => new Date(now) };
    const stats = createStatsService({ stats: createStatsRepository(fresh().db), clock });
    const annStats = await stats.forUser({ id: annUser.id, role: 'user' });
    const annCount = await recount(fresh().db, annUser.id);
    expect(annStats.totals).toEqual({ uploads: 5, views: 14, bytes: 5 * 4096 });
    expect(annStats.days).toEqual(seriesOf(annCount, new Date(now)));
    const instance = await stats.forInstance();
    const everyone = await recount(fresh().db, null);
    expect(instance.totals).toEqual({
      users: 3,
      uploads: 8,
      views: 23,
      bytes: 5 * 4096 + 5000 + 2 * 4096,
    });
    expect(instance.days).toEqual(seriesOf(everyone, new Date(now)));

    // And the uploads repository keeps them from there on: deleting old uploads.
    const repo = createUploadsRepository(fresh().db, uploadSearch(fresh().dialect));
    const deleted = await repo.deleteMany(
      [ann[0]!.id, ann[3]!.id, bob[0]!.id],
      null,
      new Date().toISOString(),
    );
    expect(deleted).toHaveLength(3);
    for (const u of [annUser, bobUser]) {
      expect(await summaries(u.id), `${u.username} after deletes`).toEqual(
        await recount(fresh().db, u.id),
      );
    }
  });
});
