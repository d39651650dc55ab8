/** Statistics over HTTP: a user's (GET /api/stats) and the whole instance's (GET /api/stats/admin). */
import { chargedBytes, MIN_CHARGE_BYTES } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeChunked, sendChunk, startChunked } from '../../../test/chunked-uploads.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { DAY_MS, last30Days, toNoon } from '../../../test/stats.ts';
import { put, type UploadJson } from '../../../test/tags.ts';
import { signIn } from '../../../test/users.ts';

const PUBLIC_URL = 'https://up.example.com';
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL });
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;

async function statsOf(c: TestContext, auth: Auth, url = '/api/stats') {
  const res = await c.app.inject({ method: 'GET', url, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Views an upload n times through its link, and commits the views. */
async function view(c: TestContext, up: UploadJson, n: number, auth: Auth = {}) {
  for (let i = 0; i < n; i++) {
    const res = await c.app.inject({ method: 'GET', url: `/${up.shortCode}`, headers: auth });
    expect(res.statusCode).toBe(200);
  }
  await c.modules.links.service.flushViews();
  const row = await c.handle.db
    .selectFrom('uploads')
    .select('views')
    .where('id', '=', up.id)
    .executeTakeFirstOrThrow();
  expect(Number(row.views)).toBe(up.views + n);
}

const today = (c: TestContext) => c.clock.now().toISOString().slice(0, 10);

/** The 30-day series with these days filled in, all others zero. */
function series(c: TestContext, filled: Record<string, [number, number]>) {
  return last30Days(c.clock.now()).map((date) => ({
    date,
    count: filled[date]?.[0] ?? 0,
    bytes: filled[date]?.[1] ?? 0,
  }));
}

describe('GET /api/stats', () => {
  it('answers zeros and 30 empty days, oldest first and today last, for a user without uploads', async () => {
    const { auth } = await signIn(ctx);
    toNoon(ctx.clock);
    const body = await statsOf(ctx, auth);
    expect(body).toEqual({
      totalUploads: 0,
      totalViews: 0,
      totalSize: 0,
      mostViewed: [],
      fileTypeBreakdown: [],
      uploadsPerDay: series(ctx, {}),
    });
    const days: { date: string; count: number; bytes: number }[] = body.uploadsPerDay;
    expect(days).toHaveLength(30);
    expect(days.at(-1)!.date).toBe(today(ctx));
    for (let i = 1; i < days.length; i++) {
      expect(Date.parse(days[i]!.date) - Date.parse(days[i - 1]!.date)).toBe(DAY_MS);
    }
    // The series follows the clock.
    ctx.clock.advance(3 * DAY_MS);
    const later = (await statsOf(ctx, auth)).uploadsPerDay;
    expect(later.at(-1).date).toBe(today(ctx));
    expect(later[0].date).toBe(days[3]!.date);
  });

  it('counts uploads by day, type and size, and views; forgets deleted uploads', async () => {
    const { auth } = await signIn(ctx);
    toNoon(ctx.clock);
    const oldDay = today(ctx);
    const old = await put(ctx, auth, 'old.zip', 1000, 'application/zip');
    // 38 days on; the session slides with each request.
    ctx.clock.advance(20 * DAY_MS);
    await statsOf(ctx, auth);
    ctx.clock.advance(15 * DAY_MS);
    const dayA = today(ctx);
    const a = await put(ctx, auth, 'a.png', 100, 'image/png');
    const b = await put(ctx, auth, 'b.pdf', 200, 'application/pdf');
    const c = await put(ctx, auth, 'c.mp4', 300, 'video/mp4');
    ctx.clock.advance(DAY_MS);
    const dayB = today(ctx);
    const d = await put(ctx, auth, 'd.zip', 400, 'application/zip');
    const e = await put(ctx, auth, 'e.bin', 50, 'application/octet-stream');
    const f = await put(ctx, auth, 'f.txt', 60, 'text/plain');
    const g = await put(ctx, auth, 'g.png', 70, 'image/png', { isPublic: 'false' });
    ctx.clock.advance(2 * DAY_MS);
    const dayC = today(ctx);
    const h = await put(ctx, auth, 'h.mp4', 80, 'video/mp4');
    await put(ctx, auth, 'i.png', 90, 'image/png');
    for (const [up, n] of [
      [old, 9],
      [a, 1],
      [b, 2],
      [c, 6],
      [d, 4],
      [f, 3],
      [g, 5],
      [h, 7],
    ] as const) {
      await view(ctx, up, n, auth);
    }
    const top = (up: UploadJson, views: number, isPublic = true) => ({
      id: up.id,
      filename: up.originalFilename,
      views,
      shortCode: up.shortCode,
      url: `${PUBLIC_URL}/${up.shortCode}`,
      isPublic,
      maxViews: null,
      hasPassword: false,
    });

    const body = await statsOf(ctx, auth);
    expect(body.totalUploads).toBe(10);
    // Storage used is what the uploads are charged: each of these small files one 4 KiB block.
    expect(body.totalSize).toBe(10 * MIN_CHARGE_BYTES);
    expect(body.totalViews).toBe(37);
    expect(body.mostViewed).toEqual([
      top(old, 9),
      top(h, 7),
      top(c, 6),
      top(g, 5, false),
      top(d, 4),
    ]);
    expect(body.fileTypeBreakdown).toHaveLength(5);
    expect(body.fileTypeBreakdown).toEqual(
      expect.arrayContaining([
        { type: 'images', count: 3 },
        { type: 'videos', count: 2 },
        { type: 'documents', count: 2 },
        { type: 'archives', count: 2 },
        { type: 'other', count: 1 },
      ]),
    );
    const expectedDays: Record<string, [number, number]> = {
      [dayA]: [3, 600],
      [dayB]: [4, 580],
      [dayC]: [2, 170],
    };
    expect(body.uploadsPerDay).toEqual(series(ctx, expectedDays));
    expect(body.uploadsPerDay.at(-1).date).toBe(dayC);
    expect(body.uploadsPerDay.map((x: { date: string }) => x.date)).not.toContain(oldDay);

    // Deletes: one, then a batch (with another user's upload, which stays).
    const other = await signIn(ctx);
    const theirs = await put(ctx, other.auth, 'theirs.png', 500, 'image/png');
    const one = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${c.id}`,
      headers: auth,
    });
    expect(one.statusCode).toBe(204);
    const many = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads/batch/delete',
      headers: auth,
      payload: { uploadIds: [d.id, e.id, theirs.id] },
    });
    expect(many.json()).toEqual({ deletedCount: 2 });

    const after = await statsOf(ctx, auth);
    expect(after).toMatchObject({
      totalUploads: 7,
      totalSize: 7 * MIN_CHARGE_BYTES,
      totalViews: 27,
    });
    expect(after.mostViewed).toEqual([
      top(old, 9),
      top(h, 7),
      top(g, 5, false),
      top(f, 3),
      top(b, 2),
    ]);
    expect(after.fileTypeBreakdown).toHaveLength(4);
    expect(after.fileTypeBreakdown).toEqual(
      expect.arrayContaining([
        { type: 'images', count: 3 },
        { type: 'documents', count: 2 },
        { type: 'videos', count: 1 },
        { type: 'archives', count: 1 },
      ]),
    );
    expect(after.uploadsPerDay).toEqual(
      series(ctx, { [dayA]: [2, 300], [dayB]: [2, 130], [dayC]: [2, 170] }),
    );
    // The other user's statistics: only their own upload.
    expect(await statsOf(ctx, other.auth)).toEqual({
      totalUploads: 1,
      totalViews: 0,
      totalSize: MIN_CHARGE_BYTES,
      mostViewed: [],
      fileTypeBreakdown: [{ type: 'images', count: 1 }],
      uploadsPerDay: series(ctx, { [dayC]: [1, 500] }),
    });
  });

  it('lists at most five, only uploads with views, most viewed first', async () => {
    const { auth } = await signIn(ctx);
    const ups = [];
    for (let n = 0; n < 8; n++) ups.push(await put(ctx, auth, `v${n}.txt`, 1, 'text/plain'));
    // Views 0, 1, 2, ... 7 for v0 ... v7; v0 has none.
    for (const [n, up] of ups.entries()) await view(ctx, up, n);
    const body = await statsOf(ctx, auth);
    expect(
      body.mostViewed.map((m: { filename: string; views: number }) => [m.filename, m.views]),
    ).toEqual([
      ['v7.txt', 7],
      ['v6.txt', 6],
      ['v5.txt', 5],
      ['v4.txt', 4],
      ['v3.txt', 3],
    ]);
    // An upload with a custom URL is linked by it.
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/uploads/${ups[7]!.id}`,
      headers: auth,
      payload: { vanityUrl: 'Most-Seen' },
    });
    expect(patched.statusCode).toBe(200);
    expect((await statsOf(ctx, auth)).mostViewed[0]).toEqual({
      id: ups[7]!.id,
      filename: 'v7.txt',
      views: 7,
      shortCode: ups[7]!.shortCode,
      url: `${PUBLIC_URL}/Most-Seen`,
      isPublic: true,
      maxViews: null,
      hasPassword: false,
    });
    const few = await signIn(ctx);
    const seen = await put(ctx, few.auth, 'seen.txt', 1, 'text/plain');
    await put(ctx, few.auth, 'unseen.txt', 1, 'text/plain');
    await view(ctx, seen, 1);
    expect((await statsOf(ctx, few.auth)).mostViewed).toEqual([
      {
        id: seen.id,
        filename: 'seen.txt',
        views: 1,
        shortCode: seen.shortCode,
        url: `${PUBLIC_URL}/${seen.shortCode}`,
        isPublic: true,
        maxViews: null,
        hasPassword: false,
      },
    ]);
  });

  it("says which entries have a view limit or a password, so the owner's look spends none", async () => {
    const { auth } = await signIn(ctx);
    const limited = await put(ctx, auth, 'limited.txt', 1, 'text/plain', { maxViews: '5' });
    const locked = await put(ctx, auth, 'locked.txt', 1, 'text/plain', { password: 'hunter22' });
    await view(ctx, limited, 2);
    await view(ctx, locked, 1, { 'x-upshot-password': 'hunter22' });
    const entries = (await statsOf(ctx, auth)).mostViewed;
    expect(
      entries.map((m: { filename: string; maxViews: number | null; hasPassword: boolean }) => [
        m.filename,
        m.maxViews,
        m.hasPassword,
      ]),
    ).toEqual([
      ['limited.txt', 5, false],
      ['locked.txt', null, true],
    ]);
  });

  it('counts a chunked upload once, however often it is completed', async () => {
    const { auth } = await signIn(ctx);
    const data = Buffer.alloc(1234, 1);
    const id = await startChunked(ctx, auth, data, data.length, {
      filename: 'big.mp4',
      mimeType: 'video/mp4',
    });
    expect((await sendChunk(ctx, auth, id, 0, data)).statusCode).toBe(204);
    const completions = await Promise.all([1, 2, 3].map(() => completeChunked(ctx, auth, id)));
    // One makes it; the others answer it (200) or find it being made (409).
    const statuses = completions.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => [200, 201, 409].includes(s))).toBe(true);
    expect((await completeChunked(ctx, auth, id)).statusCode).toBe(200);
    expect(await statsOf(ctx, auth)).toEqual({
      totalUploads: 1,
      totalViews: 0,
      totalSize: MIN_CHARGE_BYTES,
      mostViewed: [],
      fileTypeBreakdown: [{ type: 'videos', count: 1 }],
      uploadsPerDay: series(ctx, { [today(ctx)]: [1, 1234] }),
    });
  });

  it('answers 401 without credentials', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/stats' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/stats/admin', () => {
  let actx: TestContext;
  beforeAll(async () => {
    actx = await createTestContext({ PUBLIC_URL });
  });
  afterAll(() => actx.close());

  it('answers 401 without credentials and 403 to a user', async () => {
    const user = await signIn(actx);
    expect((await actx.app.inject({ method: 'GET', url: '/api/stats/admin' })).statusCode).toBe(
      401,
    );
    const res = await actx.app.inject({
      method: 'GET',
      url: '/api/stats/admin',
      headers: user.auth,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
  });

  it("answers the instance's totals, most active users, latest uploads and days", async () => {
    const admin = await signIn(actx, 'admin');
    const users: Awaited<ReturnType<typeof signIn>>[] = [];
    for (let k = 0; k < 6; k++) users.push(await signIn(actx));
    const usersBefore = await actx.handle.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    toNoon(actx.clock);
    const day1 = today(actx);
    // users[k] uploads k + 1 files (users[5] one more, deleted below); a second apart.
    const made: { up: UploadJson; username: string }[] = [];
    let bytes = 0;
    for (const [k, u] of users.entries()) {
      if (k === 3) actx.clock.advance(DAY_MS);
      for (let n = 0; n < k + 1 + (k === 5 ? 1 : 0); n++) {
        const size = 10 * (k + 1) + n;
        made.push({
          up: await put(actx, u.auth, `u${k}-${n}.txt`, size),
          username: u.user.username,
        });
        bytes += chargedBytes(size);
        actx.clock.advance(1000);
      }
    }
    const day2 = today(actx);
    made.push({ up: await put(actx, admin.auth, 'admin.txt', 5), username: admin.user.username });
    bytes += chargedBytes(5);
    await view(actx, made[0]!.up, 3);
    await view(actx, made[10]!.up, 2);
    // users[5]'s last upload goes: it leaves 6.
    const gone = made.find((m) => m.up.originalFilename === 'u5-6.txt')!;
    const del = await actx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${gone.up.id}`,
      headers: admin.auth,
    });
    expect(del.statusCode).toBe(204);
    bytes -= chargedBytes(gone.up.size);
    const kept = made.filter((m) => m !== gone);

    const body = await statsOf(actx, admin.auth, '/api/stats/admin');
    expect(Number(usersBefore.n)).toBe(8);
    expect(body.totalUsers).toBe(8);
    expect(body.totalUploads).toBe(22);
    expect(body.totalStorage).toBe(bytes);
    expect(body.totalViews).toBe(5);
    expect(body.mostActiveUsers).toEqual(
      [5, 4, 3, 2, 1].map((k) => ({
        userId: users[k]!.user.id,
        username: users[k]!.user.username,
        uploadCount: k + 1,
      })),
    );
    expect(body.recentActivity).toEqual(
      kept
        .slice(-10)
        .reverse()
        .map((m) => ({
          id: m.up.id,
          filename: m.up.originalFilename,
          username: m.username,
          createdAt: m.up.createdAt,
        })),
    );
    const sum = (ms: typeof kept) => [ms.length, ms.reduce((s, m) => s + m.up.size, 0)] as const;
    const onDay = (day: string) => kept.filter((m) => m.up.createdAt.startsWith(day));
    expect(onDay(day1).length + onDay(day2).length).toBe(22);
    expect(body.uploadsPerDay).toEqual(
      series(actx, { [day1]: [...sum(onDay(day1))], [day2]: [...sum(onDay(day2))] }),
    );
    expect(body.uploadsPerDay[28]).toEqual({
      date: day1,
      count: 6,
      bytes: 10 + 20 + 21 + 30 + 31 + 32,
    });
  });
});
