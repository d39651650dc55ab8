/** The statistics' counters when uploads, views and deletes of the same users run at once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { expectStatsAgree } from '../../../test/stats.ts';
import { put } from '../../../test/tags.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;

describe('uploads, views and deletes at the same time', () => {
  it('leave counters and summary rows equal to a recount, every deleted upload counted once', async () => {
    const a = await signIn(ctx);
    const b = await signIn(ctx);
    const admin = await signIn(ctx, 'admin');
    for (let round = 0; round < 3; round++) {
      const mine = [];
      const theirs = [];
      for (let i = 0; i < 10; i++) mine.push(await put(ctx, a.auth, `a${round}-${i}.png`, 100 + i));
      for (let i = 0; i < 6; i++) theirs.push(await put(ctx, b.auth, `b${round}-${i}.pdf`, 10 * i));
      const ids = (ups: { id: string }[]) => ups.map((u) => u.id);
      const batchDelete = (auth: Auth, uploadIds: string[]) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/uploads/batch/delete',
          headers: auth,
          payload: { uploadIds },
        });
      const deleteOne = (auth: Auth, id: string) =>
        ctx.app.inject({ method: 'DELETE', url: `/api/uploads/${id}`, headers: auth });

      const views = [...mine, ...theirs].flatMap((u) =>
        Array.from({ length: 3 }, () => ctx.app.inject({ method: 'GET', url: `/${u.shortCode}` })),
      );
      const uploads = [
        ...Array.from({ length: 4 }, (_, i) =>
          uploadFile(ctx, a.auth, { filename: `new-a${i}.zip`, data: Buffer.alloc(7 + i) }),
        ),
        ...Array.from({ length: 3 }, (_, i) =>
          uploadFile(ctx, b.auth, { filename: `new-b${i}.mp4`, data: Buffer.alloc(3 + i) }),
        ),
      ];
      const deletes = [
        batchDelete(a.auth, ids(mine.slice(0, 5))),
        batchDelete(a.auth, ids(mine.slice(3, 8))),
        batchDelete(admin.auth, [mine[6]!.id, theirs[0]!.id, theirs[1]!.id]),
        batchDelete(b.auth, [theirs[1]!.id, theirs[2]!.id, mine[9]!.id]),
        deleteOne(a.auth, mine[8]!.id),
        deleteOne(admin.auth, mine[8]!.id),
      ];
      // The views are committed in batches: several, while the uploads and deletes run.
      const flushes = (async () => {
        for (let i = 0; i < 6; i++) {
          await new Promise((resolve) => setImmediate(resolve));
          await ctx.modules.links.service.flushViews();
        }
      })();
      const answers = await Promise.all([...views, ...uploads, ...deletes]);
      await flushes;
      await ctx.modules.links.service.flushViews();
      for (const res of answers) expect(res.statusCode, res.body).toBeLessThan(500);
      // The batches name a's 0-7 and b's 0-2 (some twice): each counted by exactly one of them.
      // a's 8 went by a single delete; a's 9 was not b's to delete.
      const deleted = answers
        .slice(-6, -2)
        .reduce((sum, r) => sum + r.json<{ deletedCount: number }>().deletedCount, 0);
      expect(deleted, `round ${round}`).toBe(11);
      const left = await ctx.handle.db
        .selectFrom('uploads')
        .select('id')
        .where('id', 'in', [...ids(mine), ...ids(theirs)])
        .execute();
      expect(left.map((r) => r.id).sort(), `round ${round}`).toEqual(
        [mine[9]!.id, ...ids(theirs.slice(3))].sort(),
      );
      await expectStatsAgree(ctx, [a, b, admin], admin, `round ${round}`);
    }
  });
});
