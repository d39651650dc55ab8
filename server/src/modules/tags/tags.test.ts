/** Tags over HTTP: names and their uniqueness, the list and its counts, rename, delete. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { createTag, getUpload, listTags, put, taggedIds, tagUpload } from '../../../test/tags.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;
const call = (
  auth: Auth,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => ctx.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
const tagNames = async (auth: Auth) => (await listTags(ctx, auth)).map((t) => t.name);

describe('POST /api/tags', () => {
  it('trims the name and answers 201 with the new tag, on no upload yet', async () => {
    const { auth } = await signIn(ctx);
    const res = await call(auth, 'POST', '/api/tags', { name: '  Work ' });
    expect(res.statusCode).toBe(201);
    const { tag } = res.json();
    expect(tag).toEqual({ id: expect.any(String), name: 'Work', uploadCount: 0 });
    const fifty = 'x'.repeat(50);
    expect((await createTag(ctx, auth, `\u00a0 ${fifty} `)).name).toBe(fifty);
    expect(await listTags(ctx, auth)).toEqual([
      { id: tag.id, name: 'Work', uploadCount: 0 },
      { id: expect.any(String), name: fifty, uploadCount: 0 },
    ]);
  });

  it('refuses names blank or over 50 characters once trimmed, and control characters', async () => {
    const { auth } = await signIn(ctx);
    const bad = [
      '',
      ' ',
      '      ',
      'y'.repeat(51),
      `  ${'y'.repeat(51)}  `,
      'a\u0000b',
      'tab\there',
      'two\nlines',
      'trailing\r',
      '\u001b[31mred',
      'del\u007f',
      'c1\u0085',
      'invoice\u202egpj',
    ];
    for (const name of bad) {
      const res = await call(auth, 'POST', '/api/tags', { name });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json().error).toBe('validation_error');
    }
    for (const payload of [{}, { name: 42 }, { name: null }]) {
      expect((await call(auth, 'POST', '/api/tags', payload)).statusCode).toBe(400);
    }
    expect(await listTags(ctx, auth)).toEqual([]);
  });

  it('counts characters as people do: 50 emoji are a name, 51 are not', async () => {
    const { auth } = await signIn(ctx);
    const fifty = '\u{1F3D6}'.repeat(50); // each one character, two UTF-16 units
    expect((await createTag(ctx, auth, fifty)).name).toBe(fifty);
    const res = await call(auth, 'POST', '/api/tags', { name: `${fifty}\u{1F3D6}` });
    expect(res.statusCode).toBe(400);
  });

  it('lists names as people sort them, the same on both engines', async () => {
    const { auth } = await signIn(ctx);
    for (const name of ['zebra', 'tag 10', 'éclair', 'Apple', 'tag 2', 'banana']) {
      await createTag(ctx, auth, name);
    }
    expect(await tagNames(auth)).toEqual(['Apple', 'banana', 'éclair', 'tag 2', 'tag 10', 'zebra']);
  });

  it('keeps names unique per user regardless of case, beyond ASCII too (409)', async () => {
    const { auth } = await signIn(ctx);
    await createTag(ctx, auth, 'work');
    await createTag(ctx, auth, 'Ärger');
    // 'A\u0308rger' is 'Ärger' decomposed (NFD), as some keyboards and macOS send it.
    for (const name of ['work', 'WORK', ' Work ', 'wOrK', 'ärger', 'ÄRGER', 'A\u0308rger']) {
      const res = await call(auth, 'POST', '/api/tags', { name });
      expect(res.statusCode, name).toBe(409);
      expect(res.json().error).toBe('conflict');
      expect(res.json().message).toContain('already exists');
    }
    expect(new Set(await tagNames(auth))).toEqual(new Set(['work', 'Ärger']));
  });

  it('lets two users each have a tag of the same name', async () => {
    const one = await signIn(ctx);
    const two = await signIn(ctx);
    const a = await createTag(ctx, one.auth, 'work');
    const b = await createTag(ctx, two.auth, 'Work');
    expect(a.id).not.toBe(b.id);
    expect(await listTags(ctx, one.auth)).toEqual([{ id: a.id, name: 'work', uploadCount: 0 }]);
    expect(await listTags(ctx, two.auth)).toEqual([{ id: b.id, name: 'Work', uploadCount: 0 }]);
  });

  it('answers 401 without credentials', async () => {
    expect((await call({}, 'POST', '/api/tags', { name: 'x' })).statusCode).toBe(401);
    expect((await call({}, 'GET', '/api/tags')).statusCode).toBe(401);
  });
});

describe('GET /api/tags', () => {
  it("lists the caller's tags by name, each with its number of uploads, kept up to date", async () => {
    const me = await signIn(ctx);
    const other = await signIn(ctx);
    const cherry = await createTag(ctx, me.auth, 'cherry');
    const apple = await createTag(ctx, me.auth, 'Apple');
    const banana = await createTag(ctx, me.auth, 'banana');
    await createTag(ctx, other.auth, 'avocado');
    const summary = async () =>
      (await listTags(ctx, me.auth)).map((t) => [t.id, t.name, t.uploadCount]);
    expect(await summary()).toEqual([
      [apple.id, 'Apple', 0],
      [banana.id, 'banana', 0],
      [cherry.id, 'cherry', 0],
    ]);

    const [u1, u2, u3] = [
      await put(ctx, me.auth, 'one.txt'),
      await put(ctx, me.auth, 'two.txt'),
      await put(ctx, me.auth, 'three.txt'),
    ];
    for (const u of [u1!, u2!, u3!]) await tagUpload(ctx, me.auth, apple.id, u.id);
    await tagUpload(ctx, me.auth, banana.id, u1!.id);
    await tagUpload(ctx, me.auth, banana.id, u2!.id);
    await tagUpload(ctx, me.auth, cherry.id, u3!.id);
    expect(await summary()).toEqual([
      [apple.id, 'Apple', 3],
      [banana.id, 'banana', 2],
      [cherry.id, 'cherry', 1],
    ]);

    // Untagging.
    const off = await call(me.auth, 'DELETE', `/api/tags/${apple.id}/uploads/${u2!.id}`);
    expect(off.statusCode).toBe(200);
    expect(await summary()).toEqual([
      [apple.id, 'Apple', 2],
      [banana.id, 'banana', 2],
      [cherry.id, 'cherry', 1],
    ]);

    // Deleting an upload.
    expect((await call(me.auth, 'DELETE', `/api/uploads/${u1!.id}`)).statusCode).toBe(204);
    expect(await summary()).toEqual([
      [apple.id, 'Apple', 1],
      [banana.id, 'banana', 1],
      [cherry.id, 'cherry', 1],
    ]);

    // Deleting a tag.
    expect((await call(me.auth, 'DELETE', `/api/tags/${banana.id}`)).statusCode).toBe(204);
    expect(await summary()).toEqual([
      [apple.id, 'Apple', 1],
      [cherry.id, 'cherry', 1],
    ]);
    expect(await tagNames(other.auth)).toEqual(['avocado']);
  });
});

describe('PATCH /api/tags/:tagId', () => {
  it('renames (200 {tag}, with its count), and the uploads show the new name', async () => {
    const { auth } = await signIn(ctx);
    const tag = await createTag(ctx, auth, 'draft');
    const up = await put(ctx, auth, 'a.txt');
    await tagUpload(ctx, auth, tag.id, up.id);
    const res = await call(auth, 'PATCH', `/api/tags/${tag.id}`, { name: '  Final ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tag: { id: tag.id, name: 'Final', uploadCount: 1 } });
    expect((await getUpload(ctx, auth, up.id)).tags).toEqual([{ id: tag.id, name: 'Final' }]);
    expect(await listTags(ctx, auth)).toEqual([{ id: tag.id, name: 'Final', uploadCount: 1 }]);
  });

  it("refuses another of the caller's names (409) but takes its own name in another case", async () => {
    const { auth } = await signIn(ctx);
    const work = await createTag(ctx, auth, 'work');
    const home = await createTag(ctx, auth, 'home');
    for (const name of ['work', 'WORK', ' Work']) {
      const res = await call(auth, 'PATCH', `/api/tags/${home.id}`, { name });
      expect(res.statusCode, name).toBe(409);
      expect(res.json().message).toContain('already exists');
    }
    expect(await tagNames(auth)).toEqual(['home', 'work']);

    const recased = await call(auth, 'PATCH', `/api/tags/${work.id}`, { name: 'WORK' });
    expect(recased.statusCode).toBe(200);
    expect(recased.json().tag).toEqual({ id: work.id, name: 'WORK', uploadCount: 0 });
    const same = await call(auth, 'PATCH', `/api/tags/${home.id}`, { name: 'home' });
    expect(same.statusCode).toBe(200);
    expect(await tagNames(auth)).toEqual(['home', 'WORK']);
    // The old spelling stays taken by the renamed tag.
    expect((await call(auth, 'POST', '/api/tags', { name: 'work' })).statusCode).toBe(409);
  });

  it("answers 404 for another user's tag and for unknown ids, changing nothing", async () => {
    const owner = await signIn(ctx);
    const stranger = await signIn(ctx);
    const admin = await signIn(ctx, 'admin');
    const tag = await createTag(ctx, owner.auth, 'mine');
    for (const auth of [stranger.auth, admin.auth]) {
      const res = await call(auth, 'PATCH', `/api/tags/${tag.id}`, { name: 'stolen' });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect(
      (await call(owner.auth, 'PATCH', '/api/tags/no-such-tag', { name: 'x' })).statusCode,
    ).toBe(404);
    expect(await listTags(ctx, owner.auth)).toEqual([{ id: tag.id, name: 'mine', uploadCount: 0 }]);
    expect(await listTags(ctx, stranger.auth)).toEqual([]);
  });

  it('checks the new name like a new one', async () => {
    const { auth } = await signIn(ctx);
    const tag = await createTag(ctx, auth, 'ok');
    for (const name of ['   ', 'z'.repeat(51), 'new\nline']) {
      expect((await call(auth, 'PATCH', `/api/tags/${tag.id}`, { name })).statusCode).toBe(400);
    }
    expect(await tagNames(auth)).toEqual(['ok']);
  });
});

describe('DELETE /api/tags/:tagId', () => {
  it('takes the tag off every upload it was on (204) and keeps the uploads', async () => {
    const { auth } = await signIn(ctx);
    const gone = await createTag(ctx, auth, 'gone');
    const kept = await createTag(ctx, auth, 'kept');
    const ups = [await put(ctx, auth, 'a.txt')];
    ctx.clock.advance(1000); // b.txt is the newer one
    ups.push(await put(ctx, auth, 'b.txt'));
    for (const u of ups) await tagUpload(ctx, auth, gone.id, u.id);
    await tagUpload(ctx, auth, kept.id, ups[0]!.id);

    const res = await call(auth, 'DELETE', `/api/tags/${gone.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await getUpload(ctx, auth, ups[0]!.id)).tags).toEqual([{ id: kept.id, name: 'kept' }]);
    expect((await getUpload(ctx, auth, ups[1]!.id)).tags).toEqual([]);
    const list = (await call(auth, 'GET', '/api/uploads')).json();
    expect(list.total).toBe(2);
    expect(
      list.uploads.map((u: { originalFilename: string; tags: unknown[] }) => [
        u.originalFilename,
        u.tags,
      ]),
    ).toEqual([
      ['b.txt', []],
      ['a.txt', [{ id: kept.id, name: 'kept' }]],
    ]);
    expect(await taggedIds(ctx, gone.id)).toEqual([]);
    expect(await listTags(ctx, auth)).toEqual([{ id: kept.id, name: 'kept', uploadCount: 1 }]);
    // Gone: a second delete, a rename, the filter.
    expect((await call(auth, 'DELETE', `/api/tags/${gone.id}`)).statusCode).toBe(404);
    expect((await call(auth, 'PATCH', `/api/tags/${gone.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await call(auth, 'GET', `/api/uploads?tag=${gone.id}`)).statusCode).toBe(404);
    // The name is free again.
    expect((await createTag(ctx, auth, 'Gone')).uploadCount).toBe(0);
  });

  it("answers 404 for another user's tag, and the tag stays on its uploads", async () => {
    const owner = await signIn(ctx);
    const stranger = await signIn(ctx);
    const tag = await createTag(ctx, owner.auth, 'keep');
    const up = await put(ctx, owner.auth, 'a.txt');
    await tagUpload(ctx, owner.auth, tag.id, up.id);
    expect((await call(stranger.auth, 'DELETE', `/api/tags/${tag.id}`)).statusCode).toBe(404);
    expect((await call(owner.auth, 'DELETE', '/api/tags/unknown-id')).statusCode).toBe(404);
    expect(await listTags(ctx, owner.auth)).toEqual([{ id: tag.id, name: 'keep', uploadCount: 1 }]);
    expect(await taggedIds(ctx, tag.id)).toEqual([up.id]);
  });
});
