/** Tagging one upload (POST and DELETE /api/tags/:tagId/uploads/:uploadId) and a tag's uploads. */
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
  type UploadJson,
} from '../../../test/tags.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;
const call = (auth: Auth, method: 'GET' | 'POST' | 'DELETE', url: string) =>
  ctx.app.inject({ method, url, headers: auth });
const link = (tagId: string, uploadId: string) => `/api/tags/${tagId}/uploads/${uploadId}`;

describe('POST and DELETE /api/tags/:tagId/uploads/:uploadId', () => {
  it('answer the upload with its tags by name; doing either twice changes nothing', async () => {
    const { auth } = await signIn(ctx);
    const zeta = await createTag(ctx, auth, 'zeta');
    const alpha = await createTag(ctx, auth, 'Alpha');
    const up = await put(ctx, auth, 'photo.txt');

    const first = await call(auth, 'POST', link(zeta.id, up.id));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ...up, tags: [{ id: zeta.id, name: 'zeta' }] });
    const again = await call(auth, 'POST', link(zeta.id, up.id));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await tagRowsOf(ctx, [up.id])).toEqual([`${zeta.id}:${up.id}`]);

    const both = await tagUpload(ctx, auth, alpha.id, up.id);
    expect(both.tags).toEqual([
      { id: alpha.id, name: 'Alpha' },
      { id: zeta.id, name: 'zeta' },
    ]);
    expect(await getUpload(ctx, auth, up.id)).toEqual(both);

    const off = await call(auth, 'DELETE', link(zeta.id, up.id));
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ ...up, tags: [{ id: alpha.id, name: 'Alpha' }] });
    const offAgain = await call(auth, 'DELETE', link(zeta.id, up.id));
    expect(offAgain.statusCode).toBe(200);
    expect(offAgain.json()).toEqual(off.json());
    expect(await tagRowsOf(ctx, [up.id])).toEqual([`${alpha.id}:${up.id}`]);
    expect(await listTags(ctx, auth)).toEqual([
      { id: alpha.id, name: 'Alpha', uploadCount: 1 },
      { id: zeta.id, name: 'zeta', uploadCount: 0 },
    ]);
  });

  it("answer 404 for another user's tag and change nothing", async () => {
    const owner = await signIn(ctx);
    const stranger = await signIn(ctx);
    const tag = await createTag(ctx, owner.auth, 'private');
    const ownerUpload = await put(ctx, owner.auth, 'mine.txt');
    const strangerUpload = await put(ctx, stranger.auth, 'theirs.txt');
    await tagUpload(ctx, owner.auth, tag.id, ownerUpload.id);

    for (const [method, uploadId] of [
      ['POST', strangerUpload.id],
      ['POST', ownerUpload.id],
      ['DELETE', ownerUpload.id],
      ['DELETE', strangerUpload.id],
    ] as const) {
      const res = await call(stranger.auth, method, link(tag.id, uploadId));
      expect(res.statusCode, `${method} ${uploadId}`).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', message: 'Tag not found' });
    }
    expect(await taggedIds(ctx, tag.id)).toEqual([ownerUpload.id]);
    expect((await getUpload(ctx, stranger.auth, strangerUpload.id)).tags).toEqual([]);
  });

  it("answer 404 for another user's upload and change nothing, for an admin's own tag too", async () => {
    const owner = await signIn(ctx);
    const stranger = await signIn(ctx);
    const admin = await signIn(ctx, 'admin');
    const theirUpload = await put(ctx, owner.auth, 'theirs.txt');
    const strangerTag = await createTag(ctx, stranger.auth, 'grab');
    const adminTag = await createTag(ctx, admin.auth, 'moderated');
    const ownerTag = await createTag(ctx, owner.auth, 'own');
    await tagUpload(ctx, owner.auth, ownerTag.id, theirUpload.id);

    for (const [who, tagId] of [
      [stranger, strangerTag.id],
      [admin, adminTag.id],
    ] as const) {
      for (const method of ['POST', 'DELETE'] as const) {
        const res = await call(who.auth, method, link(tagId, theirUpload.id));
        expect(res.statusCode, `${method} ${tagId}`).toBe(404);
        expect(res.json()).toEqual({ error: 'not_found', message: 'Upload not found' });
      }
      expect(await taggedIds(ctx, tagId)).toEqual([]);
    }
    expect(await tagRowsOf(ctx, [theirUpload.id])).toEqual([`${ownerTag.id}:${theirUpload.id}`]);
    // The admin may see the upload: with its owner's tag only.
    expect((await getUpload(ctx, admin.auth, theirUpload.id)).tags).toEqual([
      { id: ownerTag.id, name: 'own' },
    ]);
    expect(await listTags(ctx, admin.auth)).toEqual([
      { id: adminTag.id, name: 'moderated', uploadCount: 0 },
    ]);
  });

  it('answer 404 for unknown tags and uploads', async () => {
    const { auth } = await signIn(ctx);
    const tag = await createTag(ctx, auth, 'known');
    const up = await put(ctx, auth, 'known.txt');
    for (const method of ['POST', 'DELETE'] as const) {
      expect((await call(auth, method, link('no-such-tag', up.id))).json()).toEqual({
        error: 'not_found',
        message: 'Tag not found',
      });
      const res = await call(auth, method, link(tag.id, 'no-such-upload'));
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Upload not found');
      expect((await call(auth, method, link('bad id!', up.id))).statusCode).toBe(400);
    }
    expect(await taggedIds(ctx, tag.id)).toEqual([]);
    // A deleted upload is unknown too.
    await call(auth, 'DELETE', `/api/uploads/${up.id}`);
    expect((await call(auth, 'POST', link(tag.id, up.id))).statusCode).toBe(404);
    expect(await taggedIds(ctx, tag.id)).toEqual([]);
  });
});

describe('GET /api/tags/:tagId/uploads', () => {
  let me: { auth: Auth };
  let tagId: string;
  /** name -> upload, made a second apart, all but two tagged. */
  const made = new Map<string, UploadJson>();
  const files: [string, string, number][] = [
    ['beach.png', 'image/png', 700],
    ['report.pdf', 'application/pdf', 300],
    ['holiday.mp4', 'video/mp4', 1200],
    ['beach-2.png', 'image/png', 100],
    ['notes.txt', 'text/plain', 50],
    ['archive.zip', 'application/zip', 900],
    ['beach-3.png', 'image/png', 400],
    ['raw.bin', 'application/octet-stream', 20],
    ['beach-4.png', 'image/png', 650],
    ['slides.pdf', 'application/pdf', 800],
    ['beach-5.png', 'image/png', 30],
    ['untagged-beach.png', 'image/png', 500],
    ['untagged.pdf', 'application/pdf', 60],
  ];
  beforeAll(async () => {
    me = await signIn(ctx);
    tagId = (await createTag(ctx, me.auth, 'trip')).id;
    for (const [name, type, size] of files) {
      made.set(name, await put(ctx, me.auth, name, size, type));
      ctx.clock.advance(1000);
    }
    for (const [name, up] of made) {
      if (!name.startsWith('untagged')) await tagUpload(ctx, me.auth, tagId, up.id);
    }
    // Thumbnails settle first: one finishing between two listings would change thumbnailUrl.
    await ctx.background.drain();
  });

  const names = (body: { uploads: { originalFilename: string }[] }) =>
    body.uploads.map((u) => u.originalFilename);
  async function both(query: string) {
    const res = await call(me.auth, 'GET', `/api/tags/${tagId}/uploads?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const viaList = await call(me.auth, 'GET', `/api/uploads?tag=${tagId}&${query}`);
    expect(viaList.json()).toEqual(res.json());
    return res.json();
  }

  it('answers the paged upload list of the tagged uploads, newest first by default', async () => {
    const body = await both('');
    expect(body).toMatchObject({ total: 11, page: 1, limit: 20 });
    expect(names(body)).toEqual(
      files
        .map(([n]) => n)
        .filter((n) => !n.startsWith('untagged'))
        .reverse(),
    );
    // (An image's thumbnail may have failed meanwhile: its URL is not compared.)
    expect(body.uploads[0]).toEqual({
      ...made.get('beach-5.png'),
      tags: [{ id: tagId, name: 'trip' }],
      thumbnailUrl: body.uploads[0].thumbnailUrl,
    });
  });

  it('combines with search, type, sort, page and limit', async () => {
    expect(names(await both('search=beach&sort=largest'))).toEqual([
      'beach.png',
      'beach-4.png',
      'beach-3.png',
      'beach-2.png',
      'beach-5.png',
    ]);
    expect(names(await both('type=documents&sort=smallest'))).toEqual([
      'notes.txt',
      'report.pdf',
      'slides.pdf',
    ]);
    expect(names(await both('search=beach&type=images&sort=oldest&limit=10'))).toEqual([
      'beach.png',
      'beach-2.png',
      'beach-3.png',
      'beach-4.png',
      'beach-5.png',
    ]);
    expect(await both('search=nothing-like-this')).toMatchObject({ uploads: [], total: 0 });
    const page2 = await both('sort=oldest&limit=10&page=2');
    expect(page2).toMatchObject({ total: 11, page: 2, limit: 10 });
    expect(names(page2)).toEqual(['beach-5.png']);
    const page1 = await both('sort=largest&limit=10');
    expect(names(page1)).toEqual([
      'holiday.mp4',
      'archive.zip',
      'slides.pdf',
      'beach.png',
      'beach-4.png',
      'beach-3.png',
      'report.pdf',
      'beach-2.png',
      'notes.txt',
      'beach-5.png',
    ]);
    expect((await both('page=3&limit=10')).uploads).toEqual([]);
    expect((await call(me.auth, 'GET', `/api/tags/${tagId}/uploads?limit=5`)).statusCode).toBe(400);
  });

  it("answers 404 for another user's tag and for an unknown one", async () => {
    const stranger = await signIn(ctx);
    const admin = await signIn(ctx, 'admin');
    for (const auth of [stranger.auth, admin.auth]) {
      const res = await call(auth, 'GET', `/api/tags/${tagId}/uploads`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect((await call(me.auth, 'GET', '/api/tags/nope/uploads')).statusCode).toBe(404);
  });
});
