/**
 * The statistics' counters against a full recount of the uploads table: after a random mix of
 * uploads, views and deletes over many days, and after the stats module's rebuild.
 */
import { MIN_CHARGE_BYTES } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import {
  byType,
  DAY_MS,
  expectStatsAgree,
  getJson,
  recount,
  toNoon,
  uploadRows,
  type Actor,
} from '../../../test/stats.ts';
import { put } from '../../../test/tags.ts';
import { uploadRow } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

const PUBLIC_URL = 'https://up.example.com';
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL });
});
afterAll(() => ctx.close());

/** A small seeded PRNG (mulberry32): the same mix on every run and engine. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KINDS = [
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['mp4', 'video/mp4'],
  ['pdf', 'application/pdf'],
  ['txt', 'text/plain'],
  ['zip', 'application/zip'],
  ['gz', 'application/gzip'],
  ['bin', 'application/octet-stream'],
] as const;

describe('the statistics after a random mix of uploads, views and deletes', () => {
  let alice: Actor;
  let bob: Actor;
  let admin: Actor;

  it('agree with a recount of the uploads table at every checkpoint', async () => {
    alice = await signIn(ctx);
    bob = await signIn(ctx);
    admin = await signIn(ctx, 'admin');
    const actors = [alice, bob, admin];
    toNoon(ctx.clock);
    const random = prng(20260115);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    /** What the test made and did: the uploads that should exist, and their views. */
    const live = new Map<string, { owner: Actor; shortCode: string; views: number }>();
    const counts = { upload: 0, view: 0, delete: 0, batch: 0, days: 0 };

    for (let op = 1; op <= 150; op++) {
      const r = random();
      const ids = [...live.keys()];
      if (r < 0.4 || ids.length < 3) {
        const owner = random() < 0.15 ? admin : pick([alice, bob]);
        const [ext, mime] = pick(KINDS);
        const size = Math.floor(random() * random() * 20_000);
        const isPublic = random() < 0.8 ? 'true' : 'false';
        const up = await put(ctx, owner.auth, `f${op}.${ext}`, size, mime, { isPublic });
        live.set(up.id, { owner, shortCode: up.shortCode, views: 0 });
        counts.upload++;
      } else if (r < 0.65) {
        const id = pick(ids);
        const u = live.get(id)!;
        const n = 1 + Math.floor(random() * 3);
        for (let i = 0; i < n; i++) {
          const res = await ctx.app.inject({
            method: 'GET',
            url: `/${u.shortCode}`,
            headers: u.owner.auth,
          });
          expect(res.statusCode).toBe(200);
        }
        u.views += n;
        counts.view += n;
      } else if (r < 0.75) {
        const id = pick(ids);
        const by = random() < 0.3 ? admin : live.get(id)!.owner;
        const res = await ctx.app.inject({
          method: 'DELETE',
          url: `/api/uploads/${id}`,
          headers: by.auth,
        });
        expect(res.statusCode).toBe(204);
        live.delete(id);
        counts.delete++;
      } else if (r < 0.85) {
        const chosen = [
          ...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(ids))),
        ];
        const by = random() < 0.3 ? admin : pick([alice, bob]);
        const gone = chosen.filter((id) => by === admin || live.get(id)!.owner === by);
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/uploads/batch/delete',
          headers: by.auth,
          payload: { uploadIds: [...chosen, 'not-an-upload'] },
        });
        expect(res.json()).toEqual({ deletedCount: gone.length });
        for (const id of gone) live.delete(id);
        counts.batch++;
      } else {
        ctx.clock.advance(Math.floor((6 + random() * 90) * 60 * 60 * 1000));
        // Keeps the sessions alive (they slide when used).
        for (const a of actors) await getJson(ctx, a.auth, '/api/auth/me');
        counts.days++;
      }
      if (op % 50 === 0) {
        // Every view counted, committed, on the right upload; every deleted upload gone.
        await ctx.modules.links.service.flushViews();
        const now = new Map((await uploadRows(ctx)).map((u) => [u.id, Number(u.views)]));
        expect(now).toEqual(new Map([...live].map(([id, u]) => [id, u.views])));
        await expectStatsAgree(ctx, actors, admin, `after ${op} operations`);
      }
    }
    // The mix did what it is for: uploads of each kind, views, deletes, more than 30 days.
    expect(counts.upload).toBeGreaterThan(40);
    expect(counts.view).toBeGreaterThan(40);
    expect(counts.delete + counts.batch).toBeGreaterThan(15);
    const days = (await recount(ctx.handle.db, null)).days;
    expect(days.size).toBeGreaterThan(8);
    const oldest = [...days.keys()].sort()[0]!;
    expect(ctx.clock.now().getTime() - Date.parse(oldest)).toBeGreaterThan(30 * DAY_MS);
  });

  it('are the same after a rebuild, which also counts rows inserted around the repository', async () => {
    const carol = await signIn(ctx);
    await put(ctx, carol.auth, 'real.png', 300, 'image/png');
    await put(ctx, carol.auth, 'real.pdf', 200, 'application/pdf');
    const aliceBefore = await getJson(ctx, alice.auth, '/api/stats');
    const now = ctx.clock.now().getTime();
    const direct = [
      ['a.png', 'images', 1000, 4, 0],
      ['b.mp4', 'videos', 2000, 0, 0],
      ['c.zip', 'archives', 3000, 7, 2],
      ['d.bin', 'other', 400, 1, 5],
      ['e.pdf', 'documents', 500, 0, 29],
      ['f.png', 'images', 600, 2, 45],
    ] as const;
    await ctx.handle.db
      .insertInto('uploads')
      .values(
        direct.map(([name, fileType, size, views, daysAgo]) =>
          uploadRow(carol.user.id, {
            original_filename: name,
            file_type: fileType,
            size,
            views,
            created_at: new Date(now - daysAgo * DAY_MS - 1000).toISOString(),
          }),
        ),
      )
      .execute();
    // The counters do not know of them yet.
    expect(await getJson(ctx, carol.auth, '/api/stats')).toMatchObject({
      totalUploads: 2,
      totalSize: 2 * MIN_CHARGE_BYTES,
    });

    await ctx.modules.stats.service.rebuild();
    const carolStats = await getJson(ctx, carol.auth, '/api/stats');
    // Each of them under 4 KiB: charged one block.
    expect(carolStats).toMatchObject({
      totalUploads: 8,
      totalSize: 8 * MIN_CHARGE_BYTES,
      totalViews: 14,
    });
    expect(carolStats.mostViewed.map((m: { filename: string }) => m.filename)).toEqual([
      'c.zip',
      'a.png',
      'f.png',
      'd.bin',
    ]);
    expect(byType(carolStats.fileTypeBreakdown)).toEqual([
      { type: 'archives', count: 1 },
      { type: 'documents', count: 2 },
      { type: 'images', count: 3 },
      { type: 'other', count: 1 },
      { type: 'videos', count: 1 },
    ]);
    await expectStatsAgree(ctx, [alice, bob, admin, carol], admin, 'after the rebuild');
    expect(await getJson(ctx, alice.auth, '/api/stats')).toEqual(aliceBefore);

    // And the counters go on from there: deleting a directly inserted row.
    const [row] = await ctx.handle.db
      .selectFrom('uploads')
      .select('id')
      .where('original_filename', '=', 'c.zip')
      .execute();
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${row!.id}`,
      headers: carol.auth,
    });
    expect(res.statusCode).toBe(204);
    await expectStatsAgree(ctx, [carol], admin, 'after deleting one');
  });
});
