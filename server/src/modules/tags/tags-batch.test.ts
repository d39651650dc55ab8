/** Tagging and untagging many uploads at once, and the tag rows of deleted uploads. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import {
  createTag,
  getUpload,
  listTags,
  put,
  tagRowsOf,
  taggedIds,
  tagUpload,
} from '../../../test/tags.ts';
import { uploadRow } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;
const batch = (auth: Auth, op: 'add-tag' | 'remove-tag', payload: object) =>
  ctx.app.inject({ method: 'POST', url: `/api/uploads/batch/${op}`, headers: auth, payload });
const sortedIds = (ups: { id: string }[]) => ups.map((u) => u.id).sort();

async function uploads(auth: Auth, n: number, prefix = 'f') {
  const ups = [];
  for (let i = 0; i < n; i++) ups.push(await put(ctx, auth, `${prefix}-${i}.txt`));
  return ups;
}

describe('POST /api/uploads/batch/add-tag', () => {
  it("tags the caller's uploads, counts those that had it as skipped and ignores others", async () => {
    const me = await signIn(ctx);
    const other = await signIn(ctx);
    const tag = await createTag(ctx, me.auth, 'batch');
    const mine = await uploads(me.auth, 5);
    const [theirs] = await uploads(other.auth, 1, 'theirs');
    await tagUpload(ctx, me.auth, tag.id, mine[0]!.id);
    await tagUpload(ctx, me.auth, tag.id, mine[1]!.id);

    const ids = [...mine.map((u) => u.id), theirs!.id, 'no-such-upload'];
    const res = await batch(me.auth, 'add-tag', { tagId: tag.id, uploadIds: ids });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ addedCount: 3, skippedCount: 2, fullCount: 0 });
    expect(await taggedIds(ctx, tag.id)).toEqual(sortedIds(mine));
    expect(await tagRowsOf(ctx, [theirs!.id])).toEqual([]);
    expect((await getUpload(ctx, other.auth, theirs!.id)).tags).toEqual([]);
    expect((await getUpload(ctx, me.auth, mine[4]!.id)).tags).toEqual([
      { id: tag.id, name: 'batch' },
    ]);
    expect(await listTags(ctx, me.auth)).toEqual([{ id: tag.id, name: 'batch', uploadCount: 5 }]);

    // Again: all skipped; only foreign ids: nothing at all.
    expect((await batch(me.auth, 'add-tag', { tagId: tag.id, uploadIds: ids })).json()).toEqual({
      addedCount: 0,
      skippedCount: 5,
      fullCount: 0,
    });
    const foreign = await batch(me.auth, 'add-tag', {
      tagId: tag.id,
      uploadIds: [theirs!.id, 'unknown-1', 'unknown-2'],
    });
    expect(foreign.statusCode).toBe(200);
    expect(foreign.json()).toEqual({ addedCount: 0, skippedCount: 0, fullCount: 0 });
    expect(await taggedIds(ctx, tag.id)).toEqual(sortedIds(mine));
  });

  it("answers 404 for another user's tag (an admin's too) and changes nothing", async () => {
    const owner = await signIn(ctx);
    const stranger = await signIn(ctx);
    const admin = await signIn(ctx, 'admin');
    const tag = await createTag(ctx, owner.auth, 'owned');
    const ownerUploads = await uploads(owner.auth, 2);
    const strangerUploads = await uploads(stranger.auth, 2);
    const everything = [...ownerUploads, ...strangerUploads].map((u) => u.id);
    for (const who of [stranger, admin]) {
      const res = await batch(who.auth, 'add-tag', { tagId: tag.id, uploadIds: everything });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', message: 'Tag not found' });
    }
    const unknown = await batch(owner.auth, 'add-tag', {
      tagId: 'no-such-tag',
      uploadIds: everything,
    });
    expect(unknown.statusCode).toBe(404);
    expect(await tagRowsOf(ctx, everything)).toEqual([]);
  });

  it('refuses no ids, more than 1000, an id twice, and a missing or bad tagId (400)', async () => {
    const { auth } = await signIn(ctx);
    const tag = await createTag(ctx, auth, 'rules');
    const [up] = await uploads(auth, 1);
    const many = Array.from({ length: 1001 }, (_, i) => `id-${i}`);
    const bodies: object[] = [
      { tagId: tag.id, uploadIds: [] },
      { tagId: tag.id, uploadIds: many },
      { tagId: tag.id, uploadIds: [up!.id, 'x', up!.id] },
      { uploadIds: [up!.id] },
      { tagId: '', uploadIds: [up!.id] },
      { tagId: tag.id },
      { tagId: tag.id, uploadIds: up!.id },
      { tagId: tag.id, uploadIds: ['has space'] },
    ];
    for (const op of ['add-tag', 'remove-tag'] as const) {
      for (const body of bodies) {
        const res = await batch(auth, op, body);
        expect(res.statusCode, `${op} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
        expect(res.json().error).toBe('validation_error');
      }
    }
    expect(await taggedIds(ctx, tag.id)).toEqual([]);
    // 1000 distinct ids is the most allowed.
    const most = await batch(auth, 'add-tag', {
      tagId: tag.id,
      uploadIds: [up!.id, ...many.slice(0, 999)],
    });
    expect(most.statusCode).toBe(200);
    expect(most.json()).toEqual({ addedCount: 1, skippedCount: 0, fullCount: 0 });
  });
});

describe('a batch of 1000 uploads', () => {
  it('is tagged and untagged in one request each', async () => {
    const { user, auth } = await signIn(ctx);
    const tag = await createTag(ctx, auth, 'thousand');
    const rows = Array.from({ length: 1000 }, (_, i) =>
      uploadRow(user.id, { original_filename: `bulk-${i}.png` }),
    );
    for (let i = 0; i < rows.length; i += 250) {
      await ctx.handle.db
        .insertInto('uploads')
        .values(rows.slice(i, i + 250))
        .execute();
    }
    const uploadIds = rows.map((r) => r.id);
    await tagUpload(ctx, auth, tag.id, uploadIds[500]!);
    const added = await batch(auth, 'add-tag', { tagId: tag.id, uploadIds });
    expect(added.json()).toEqual({ addedCount: 999, skippedCount: 1, fullCount: 0 });
    expect(await taggedIds(ctx, tag.id)).toEqual([...uploadIds].sort());
    const listed = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads?tag=${tag.id}&search=bulk-99&type=images`,
      headers: auth,
    });
    expect(listed.json().total).toBe(11); // bulk-99 and bulk-990 ... bulk-999
    const removed = await batch(auth, 'remove-tag', { tagId: tag.id, uploadIds });
    expect(removed.json()).toEqual({ removedCount: 1000 });
    expect(await taggedIds(ctx, tag.id)).toEqual([]);
  });
});

describe('POST /api/uploads/batch/remove-tag', () => {
  it('counts only the uploads that had the tag', async () => {
    const me = await signIn(ctx);
    const other = await signIn(ctx);
    const tag = await createTag(ctx, me.auth, 'remove');
    const keep = await createTag(ctx, me.auth, 'keep');
    const mine = await uploads(me.auth, 4);
    const [theirs] = await uploads(other.auth, 1);
    for (const u of mine.slice(0, 3)) await tagUpload(ctx, me.auth, tag.id, u.id);
    await tagUpload(ctx, me.auth, keep.id, mine[0]!.id);

    const ids = [mine[0]!.id, mine[1]!.id, mine[3]!.id, theirs!.id, 'unknown'];
    const res = await batch(me.auth, 'remove-tag', { tagId: tag.id, uploadIds: ids });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ removedCount: 2 });
    expect(await taggedIds(ctx, tag.id)).toEqual([mine[2]!.id]);
    expect(await taggedIds(ctx, keep.id)).toEqual([mine[0]!.id]);
    expect((await batch(me.auth, 'remove-tag', { tagId: tag.id, uploadIds: ids })).json()).toEqual({
      removedCount: 0,
    });
    expect(await listTags(ctx, me.auth)).toEqual([
      { id: keep.id, name: 'keep', uploadCount: 1 },
      { id: tag.id, name: 'remove', uploadCount: 1 },
    ]);
  });

  it("answers 404 for another user's tag and removes nothing", async () => {
    const owner = await signIn(ctx);
    const stranger = await signIn(ctx);
    const admin = await signIn(ctx, 'admin');
    const tag = await createTag(ctx, owner.auth, 'stays');
    const ups = await uploads(owner.auth, 2);
    for (const u of ups) await tagUpload(ctx, owner.auth, tag.id, u.id);
    for (const who of [stranger, admin]) {
      const res = await batch(who.auth, 'remove-tag', {
        tagId: tag.id,
        uploadIds: ups.map((u) => u.id),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect(await taggedIds(ctx, tag.id)).toEqual(sortedIds(ups));
  });
});

describe('deleting uploads', () => {
  it('removes their tag rows: a single delete', async () => {
    const { auth } = await signIn(ctx);
    const a = await createTag(ctx, auth, 'a');
    const b = await createTag(ctx, auth, 'b');
    const ups = await uploads(auth, 3);
    for (const u of ups) await tagUpload(ctx, auth, a.id, u.id);
    await tagUpload(ctx, auth, b.id, ups[0]!.id);

    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${ups[0]!.id}`,
      headers: auth,
    });
    expect(res.statusCode).toBe(204);
    expect(await tagRowsOf(ctx, [ups[0]!.id])).toEqual([]);
    expect(await listTags(ctx, auth)).toEqual([
      { id: a.id, name: 'a', uploadCount: 2 },
      { id: b.id, name: 'b', uploadCount: 0 },
    ]);
    expect(await taggedIds(ctx, a.id)).toEqual(sortedIds(ups.slice(1)));
  });

  it("removes their tag rows: a batch delete, and an admin's delete of a user's uploads", async () => {
    const { auth } = await signIn(ctx);
    const admin = await signIn(ctx, 'admin');
    const tag = await createTag(ctx, auth, 'doomed');
    const ups = await uploads(auth, 5);
    const added = await batch(auth, 'add-tag', { tagId: tag.id, uploadIds: ups.map((u) => u.id) });
    expect(added.json()).toEqual({ addedCount: 5, skippedCount: 0, fullCount: 0 });

    const del = (who: Auth, ids: string[]) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/uploads/batch/delete',
        headers: who,
        payload: { uploadIds: ids },
      });
    expect((await del(auth, [ups[0]!.id, ups[1]!.id])).json()).toEqual({ deletedCount: 2 });
    expect((await listTags(ctx, auth))[0]!.uploadCount).toBe(3);
    expect((await del(admin.auth, [ups[2]!.id, ups[3]!.id])).json()).toEqual({ deletedCount: 2 });
    expect(await listTags(ctx, auth)).toEqual([{ id: tag.id, name: 'doomed', uploadCount: 1 }]);
    expect(await taggedIds(ctx, tag.id)).toEqual([ups[4]!.id]);
    expect(
      await tagRowsOf(
        ctx,
        ups.slice(0, 4).map((u) => u.id),
      ),
    ).toEqual([]);
    const left = await ctx.app.inject({
      method: 'GET',
      url: `/api/tags/${tag.id}/uploads`,
      headers: auth,
    });
    expect(left.json()).toMatchObject({ total: 1, uploads: [{ id: ups[4]!.id }] });
  });
});
