/**
 * The limits on tags: MAX_TAGS_PER_UPLOAD on one upload and MAX_TAGS_PER_USER per user, each
 * a 409 naming the limit, held by concurrent requests too; the batch leaves full uploads out.
 */
import {
  MAX_TAGS_PER_UPLOAD,
  MAX_TAGS_PER_USER,
  UPLOAD_TAG_LIMIT_MESSAGE,
  USER_TAG_LIMIT_MESSAGE,
} from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import {
  createTag,
  getUpload,
  listTags,
  put,
  tagUpload,
  type TagJson,
} from '../../../test/tags.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;

/** n new tags named prefix-0 .. prefix-(n-1), made 25 at a time. */
async function makeTags(auth: Auth, n: number, prefix = 't'): Promise<TagJson[]> {
  const tags: TagJson[] = [];
  for (let i = 0; i < n; i += 25) {
    const names = Array.from({ length: Math.min(25, n - i) }, (_, j) => `${prefix}-${i + j}`);
    tags.push(...(await Promise.all(names.map((name) => createTag(ctx, auth, name)))));
  }
  return tags;
}

const addTag = (auth: Auth, tagId: string, uploadId: string) =>
  ctx.app.inject({ method: 'POST', url: `/api/tags/${tagId}/uploads/${uploadId}`, headers: auth });
const newTag = (auth: Auth, name: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/tags', headers: auth, payload: { name } });

describe('tags on one upload', () => {
  it(`carries at most ${MAX_TAGS_PER_UPLOAD}: one more is a 409 naming the limit`, async () => {
    const { auth } = await signIn(ctx);
    const tags = await makeTags(auth, MAX_TAGS_PER_UPLOAD + 1);
    const upload = await put(ctx, auth, 'full.txt');
    for (const tag of tags.slice(0, MAX_TAGS_PER_UPLOAD)) {
      await tagUpload(ctx, auth, tag.id, upload.id);
    }
    const extra = tags[MAX_TAGS_PER_UPLOAD]!;

    const refused = await addTag(auth, extra.id, upload.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'conflict', message: UPLOAD_TAG_LIMIT_MESSAGE });
    expect(UPLOAD_TAG_LIMIT_MESSAGE).toBe('An upload can carry at most 50 tags');
    expect((await getUpload(ctx, auth, upload.id)).tags).toHaveLength(MAX_TAGS_PER_UPLOAD);

    // A tag it has already is no change, and answers as before.
    expect((await addTag(auth, tags[0]!.id, upload.id)).statusCode).toBe(200);
    // One off, and the place is free again.
    const off = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/tags/${tags[0]!.id}/uploads/${upload.id}`,
      headers: auth,
    });
    expect(off.statusCode).toBe(200);
    await tagUpload(ctx, auth, extra.id, upload.id);
  });

  it('lets no two concurrent taggings pass the limit together', async () => {
    const { auth } = await signIn(ctx);
    const tags = await makeTags(auth, MAX_TAGS_PER_UPLOAD + 8);
    const upload = await put(ctx, auth, 'race.txt');
    for (const tag of tags.slice(0, MAX_TAGS_PER_UPLOAD - 2)) {
      await tagUpload(ctx, auth, tag.id, upload.id);
    }
    const racing = tags.slice(MAX_TAGS_PER_UPLOAD - 2);
    const answers = await Promise.all([
      ...racing.slice(0, 5).map((tag) => addTag(auth, tag.id, upload.id)),
      ...racing.slice(5).map((tag) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/uploads/batch/add-tag',
          headers: auth,
          payload: { tagId: tag.id, uploadIds: [upload.id] },
        }),
      ),
    ]);
    const statuses = answers.slice(0, 5).map((res) => res.statusCode);
    const batchAdded = answers.slice(5).map((res) => res.json<{ addedCount: number }>().addedCount);
    expect(
      statuses.every((s) => s === 200 || s === 409),
      String(statuses),
    ).toBe(true);
    expect(statuses.filter((s) => s === 200).length + batchAdded.reduce((a, b) => a + b)).toBe(2);
    expect((await getUpload(ctx, auth, upload.id)).tags).toHaveLength(MAX_TAGS_PER_UPLOAD);
    const counts = (await listTags(ctx, auth)).reduce((sum, t) => sum + t.uploadCount, 0);
    expect(counts).toBe(MAX_TAGS_PER_UPLOAD);
  });

  it('batch add-tag leaves full uploads without the tag and counts them apart', async () => {
    const { auth } = await signIn(ctx);
    const tags = await makeTags(auth, MAX_TAGS_PER_UPLOAD);
    const full = await put(ctx, auth, 'full.txt');
    const had = await put(ctx, auth, 'had.txt');
    const open = await put(ctx, auth, 'open.txt');
    const [tag] = await makeTags(auth, 1, 'batch');
    for (const t of tags) await tagUpload(ctx, auth, t.id, full.id);
    await tagUpload(ctx, auth, tag!.id, had.id);

    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads/batch/add-tag',
      headers: auth,
      payload: { tagId: tag!.id, uploadIds: [full.id, had.id, open.id] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ addedCount: 1, skippedCount: 1, fullCount: 1 });
    expect((await getUpload(ctx, auth, full.id)).tags).toHaveLength(MAX_TAGS_PER_UPLOAD);
    expect((await getUpload(ctx, auth, open.id)).tags).toEqual([{ id: tag!.id, name: 'batch-0' }]);
  });
});

describe("a user's tags", () => {
  it(
    `are at most ${MAX_TAGS_PER_USER}, held by concurrent creations, freed by a deletion`,
    { timeout: 120_000 },
    async () => {
      const { auth } = await signIn(ctx);
      const other = await signIn(ctx);
      await makeTags(auth, MAX_TAGS_PER_USER - 3);

      // Eight at once for the last three places: three made, five refused.
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => newTag(auth, `last-${i}`)),
      );
      const statuses = answers.map((res) => res.statusCode).sort();
      expect(statuses).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
      for (const res of answers.filter((r) => r.statusCode === 409)) {
        expect(res.json()).toEqual({ error: 'conflict', message: USER_TAG_LIMIT_MESSAGE });
      }
      expect(USER_TAG_LIMIT_MESSAGE).toBe('You can have at most 1,000 tags');
      const mine = await listTags(ctx, auth);
      expect(mine).toHaveLength(MAX_TAGS_PER_USER);

      // A name taken is still a name taken, not the limit.
      expect((await newTag(auth, 't-0')).json().message).toBe('Tag "t-0" already exists');
      // Another user is not limited by this one's tags.
      expect((await newTag(other.auth, 'mine')).statusCode).toBe(201);

      const gone = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/tags/${mine[0]!.id}`,
        headers: auth,
      });
      expect(gone.statusCode).toBe(204);
      expect((await newTag(auth, 'again')).statusCode).toBe(201);
      expect((await newTag(auth, 'one-more')).statusCode).toBe(409);
    },
  );
});
