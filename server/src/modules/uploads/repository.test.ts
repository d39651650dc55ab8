import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadSearch } from '../../db/search.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { createUser } from '../../../test/users.ts';
import { uploadRow } from '../../../test/uploads.ts';
import { createUploadsRepository } from './repository.ts';

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
    // Two repositories are two server instances: each batches its own views.
    const search = uploadSearch(ctx.handle.dialect);
    const one = createUploadsRepository(ctx.handle.db, search);
    const two = createUploadsRepository(ctx.handle.db, search);
    const rounds = 30;
    for (let i = 0; i < rounds; i++) {
      const results = await Promise.allSettled([
        one.incrementViews(a.id),
        one.incrementViews(b.id),
        two.incrementViews(b.id),
        two.incrementViews(a.id),
      ]);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    }
    const rows = await ctx.handle.db
      .selectFrom('uploads')
      .select(['id', 'views'])
      .where('id', 'in', [a.id, b.id])
      .execute();
    expect(rows.map((r) => Number(r.views))).toEqual([2 * rounds, 2 * rounds]);
  });
});
