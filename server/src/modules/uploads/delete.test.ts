/** Deleting under concurrency: refunds happen once, and deletes never deadlock with views. */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { diskUsedOf, uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function uploads(auth: Record<string, string>, n: number, size = 1000) {
  const ups: { id: string; shortCode: string }[] = [];
  for (let i = 0; i < n; i++) {
    const res = await uploadFile(ctx, auth, {
      filename: `${i}.bin`,
      data: crypto.randomBytes(size),
    });
    expect(res.statusCode).toBe(201);
    ups.push(res.json().upload);
  }
  return ups;
}

const counters = async (userId: string) =>
  ctx.handle.db
    .selectFrom('users')
    .select(['disk_used', 'upload_count'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
    .then((r) => ({ diskUsed: Number(r.disk_used), uploads: Number(r.upload_count) }));

describe('concurrent batch deletes of the same uploads', () => {
  it('delete each upload once and refund it once (diskUsed went negative)', async () => {
    const { user, auth } = await signIn(ctx);
    const ups = await uploads(auth, 5);
    const ids = ups.map((u) => u.id);
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/uploads/batch/delete',
          headers: auth,
          payload: { uploadIds: ids },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const deleted = results.reduce((sum, r) => sum + (r.json().deletedCount as number), 0);
    expect(deleted).toBe(5);
    expect(await counters(user.id)).toEqual({ diskUsed: 0, uploads: 0 });
    expect(await diskUsedOf(ctx, user.id)).toBe(0);
  });
});

describe('deletes, in any order, beside views and vanity URLs of the same uploads', () => {
  it('never deadlock nor fail, nor do vanity URLs set meanwhile', async () => {
    const { user, auth } = await signIn(ctx);
    const ups = await uploads(auth, 12, 100);
    const ids = ups.map((u) => u.id);
    const shuffled = (seed: number) =>
      [...ids].sort(
        (a, b) =>
          crypto.createHash('md5').update(`${seed}${a}`).digest()[0]! -
          crypto.createHash('md5').update(`${seed}${b}`).digest()[0]!,
      );
    const views = ups.flatMap((u) =>
      Array.from({ length: 4 }, () => ctx.app.inject({ method: 'GET', url: `/${u.shortCode}` })),
    );
    const deletes = Array.from({ length: 6 }, (_, i) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/uploads/batch/delete',
        headers: auth,
        payload: { uploadIds: shuffled(i).slice(0, 8 + (i % 4)) },
      }),
    );
    const vanities = ups.map((u, i) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/uploads/${u.id}`,
        headers: auth,
        payload: { vanityUrl: `v-${crypto.randomBytes(3).toString('hex')}-${i}` },
      }),
    );
    // Views are committed in batches: several, while the deletes run.
    const flushes = (async () => {
      for (let i = 0; i < 6; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        await ctx.modules.links.service.flushViews();
      }
    })();
    const answers = await Promise.all([...views, ...vanities, ...deletes]);
    await flushes;
    await ctx.modules.links.service.flushViews();
    for (const a of answers) expect(a.statusCode, a.body).toBeLessThan(500);
    const left = await ctx.handle.db
      .selectFrom('uploads')
      .select('size')
      .where('user_id', '=', user.id)
      .execute();
    expect(await counters(user.id)).toEqual({
      diskUsed: left.reduce((s, r) => s + Number(r.size), 0),
      uploads: left.length,
    });
  });
});
