/**
 * Tagging while the same uploads are deleted, given new vanity URLs and viewed, and while a tag
 * is deleted: nothing fails, and the tag rows end as a sequential run would leave them.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { createTag, listTags, put, taggedIds } from '../../../test/tags.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('tagging beside deletes, vanity URLs, views and a tag deletion', () => {
  it('never fails, and leaves each tag on exactly the surviving uploads with their search text', async () => {
    const { auth } = await signIn(ctx);
    for (let round = 0; round < 3; round++) {
      const kept = await createTag(ctx, auth, `kept-${round}`);
      const doomed = await createTag(ctx, auth, `doomed-${round}`);
      const ups = [];
      for (let i = 0; i < 12; i++) ups.push(await put(ctx, auth, `r${round}-${i}.txt`));
      const ids = ups.map((u) => u.id);
      const post = (url: string, payload: object) =>
        ctx.app.inject({ method: 'POST', url, headers: auth, payload });
      const vanity = (i: number) => `v${round}-${i}-${crypto.randomBytes(3).toString('hex')}`;
      const vanities = new Map(ids.slice(4).map((id, i) => [id, vanity(i)]));

      const answers = await Promise.all([
        post('/api/uploads/batch/add-tag', { tagId: kept.id, uploadIds: [...ids].reverse() }),
        post('/api/uploads/batch/add-tag', { tagId: doomed.id, uploadIds: ids }),
        post('/api/uploads/batch/delete', { uploadIds: ids.slice(0, 4) }),
        ...[...vanities].map(([id, v]) =>
          ctx.app.inject({
            method: 'PATCH',
            url: `/api/uploads/${id}`,
            headers: auth,
            payload: { vanityUrl: v },
          }),
        ),
        ...ups.map((u) => ctx.app.inject({ method: 'GET', url: `/${u.shortCode}` })),
        ...ids.map((id) =>
          ctx.app.inject({
            method: 'POST',
            url: `/api/tags/${kept.id}/uploads/${id}`,
            headers: auth,
          }),
        ),
        ctx.app.inject({ method: 'DELETE', url: `/api/tags/${doomed.id}`, headers: auth }),
      ]);
      for (const res of answers) expect(res.statusCode, res.body).toBeLessThan(500);
      expect(answers[2]!.json()).toEqual({ deletedCount: 4 });

      const surviving = ids.slice(4);
      expect(await taggedIds(ctx, kept.id), `round ${round}`).toEqual([...surviving].sort());
      expect(await taggedIds(ctx, doomed.id)).toEqual([]);
      const tags = await listTags(ctx, auth);
      expect(tags.find((t) => t.id === kept.id)?.uploadCount).toBe(8);
      expect(tags.find((t) => t.id === doomed.id)).toBeUndefined();
      // Each upload is found in the tag by its vanity URL as it is now.
      for (const [id, v] of vanities) {
        const res = await ctx.app.inject({
          method: 'GET',
          url: `/api/uploads?tag=${kept.id}&search=${v.toUpperCase()}`,
          headers: auth,
        });
        expect(
          res.json().uploads.map((u: { id: string }) => u.id),
          v,
        ).toEqual([id]);
      }
    }
  });
});

describe('deleting many tagged uploads while their tag is deleted or taken off them', () => {
  // Uploads tagged in the reverse of the order a delete visits them: without one lock order
  // (uploads, their tags, then the tag rows), PostgreSQL found a deadlock in about one round
  // in six and answered 500.
  it('never deadlocks, and the counts stay those of the rows', { timeout: 180_000 }, async () => {
    const { auth } = await signIn(ctx);
    const post = (url: string, payload: object) =>
      ctx.app.inject({ method: 'POST', url, headers: auth, payload });
    for (let round = 0; round < 12; round++) {
      const tag = await createTag(ctx, auth, `race-${round}`);
      const other = await createTag(ctx, auth, `other-${round}`);
      const ids: string[] = [];
      for (let i = 0; i < 150; i++) ids.push((await put(ctx, auth, `d${round}-${i}.txt`)).id);
      for (const id of [...ids].sort().reverse()) {
        await ctx.app.inject({
          method: 'POST',
          url: `/api/tags/${tag.id}/uploads/${id}`,
          headers: auth,
        });
      }
      await post('/api/uploads/batch/add-tag', { tagId: other.id, uploadIds: ids.slice(0, 50) });
      const [deleted, raced] = await Promise.all([
        post('/api/uploads/batch/delete', { uploadIds: ids.slice(0, 100) }),
        round % 2 === 0
          ? ctx.app.inject({ method: 'DELETE', url: `/api/tags/${tag.id}`, headers: auth })
          : post('/api/uploads/batch/remove-tag', { tagId: tag.id, uploadIds: ids }),
      ]);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(raced.statusCode, raced.body).toBeLessThan(300);
      const tags = await listTags(ctx, auth);
      for (const t of tags) {
        expect(t.uploadCount, t.name).toBe((await taggedIds(ctx, t.id)).length);
      }
      expect(tags.find((t) => t.id === other.id)?.uploadCount).toBe(0);
    }
  });
});
