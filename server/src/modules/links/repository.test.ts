import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { createUser } from '../../../test/users.ts';
import { uploadRow } from '../../../test/uploads.ts';
import { createLinksRepository } from './repository.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('view counting', () => {
  it('commits every view when two instances count the same uploads in opposite orders', async () => {
    const { row: user } = await createUser(ctx);
    const [a, b] = [uploadRow(user.id), uploadRow(user.id)];
    await ctx.handle.db.insertInto('uploads').values([a, b]).execute();
    // Two repositories are two server instances, each committing its own batches.
    const one = createLinksRepository(ctx.handle.db);
    const two = createLinksRepository(ctx.handle.db);
    const rounds = 30;
    for (let i = 0; i < rounds; i++) {
      const results = await Promise.allSettled([
        one.addViews(
          new Map([
            [a.id, 1],
            [b.id, 2],
          ]),
        ),
        two.addViews(
          new Map([
            [b.id, 1],
            [a.id, 2],
          ]),
        ),
      ]);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    }
    const rows = await ctx.handle.db
      .selectFrom('uploads')
      .select(['id', 'views'])
      .where('id', 'in', [a.id, b.id])
      .execute();
    expect(rows.map((r) => Number(r.views))).toEqual([3 * rounds, 3 * rounds]);
    const owner = await ctx.handle.db
      .selectFrom('users')
      .select('view_count')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(owner.view_count)).toBe(6 * rounds);
  });
});
