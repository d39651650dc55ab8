/**
 * Links are looked up together (one query for the downloads of a turn of the event loop) and
 * small files' bytes are kept in memory, yet each of many simultaneous links gets its own
 * answer, and a change to the row made anywhere (here straight in the database, as another
 * instance or an operator would) holds from the very next request: nothing about a link is
 * kept between requests.
 */
import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
let auth: Record<string, string>;
beforeAll(async () => {
  ctx = await createTestContext();
  ({ auth } = await signIn(ctx));
});
afterAll(() => ctx.close());

type Uploaded = { id: string; shortCode: string };
async function put(data: Buffer, isPublic = 'true', filename = 'pic.png'): Promise<Uploaded> {
  const res = await uploadFile(
    ctx,
    auth,
    { filename, contentType: 'image/png', data },
    { isPublic },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ upload: Uploaded }>().upload;
}
const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

/** Serves the link once, as it is before the change. */
const served = async (url: string) => expect((await get(url)).statusCode).toBe(200);
/** The next request's status. */
const statusOf = async (url: string) => (await get(url)).statusCode;

/** Makes an upload public (1) or private (0) straight in the database, as another instance. */
const setPublic = (id: string, isPublic: 0 | 1) =>
  ctx.handle.db.updateTable('uploads').set({ is_public: isPublic }).where('id', '=', id).execute();

describe('links looked up together', () => {
  it('answer each request with its own upload', async () => {
    const datas = Array.from({ length: 6 }, (_, i) => crypto.randomBytes(1000 + i));
    const ups = [];
    for (const d of datas) ups.push(await put(d));
    const vanity = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/uploads/${ups[0]!.id}`,
      headers: auth,
      payload: { vanityUrl: 'Holiday-Pic' },
    });
    expect(vanity.statusCode, vanity.body).toBe(200);
    const hidden = await put(crypto.randomBytes(500), 'false');

    const asked: { url: string; status: number; body?: Buffer }[] = [
      ...ups.flatMap((u, i) => [
        { url: `/${u.shortCode}`, status: 200, body: datas[i] },
        { url: `/${u.shortCode.toUpperCase()}`, status: 200, body: datas[i] },
      ]),
      { url: '/HOLIDAY-PIC', status: 200, body: datas[0] },
      { url: '/holiday-pic', status: 200, body: datas[0] },
      { url: `/${hidden.shortCode}`, status: 404 },
      { url: '/nothing-here', status: 404 },
    ];
    // Twice over, all at once.
    const all = [...asked, ...asked];
    const answers = await Promise.all(all.map((a) => get(a.url)));
    for (const [i, res] of answers.entries()) {
      const want = all[i]!;
      expect(res.statusCode, want.url).toBe(want.status);
      if (want.body) expect(res.rawPayload.equals(want.body), want.url).toBe(true);
    }
    // The private one, for its owner, among anonymous requests for it.
    const mixed = await Promise.all([
      get(`/${hidden.shortCode}`),
      get(`/${hidden.shortCode}`, auth),
      get(`/${hidden.shortCode}`),
    ]);
    expect(mixed.map((r) => r.statusCode)).toEqual([404, 200, 404]);
  });
});

describe('a change to an upload', () => {
  it('made private: anonymous visitors get 404 from the next request, the owner a private answer', async () => {
    const data = crypto.randomBytes(3000);
    const up = await put(data);
    await served(`/${up.shortCode}`);
    const before = await get(`/${up.shortCode}`);
    expect(before.statusCode).toBe(200);
    expect(before.headers['cache-control']).toBe('public, max-age=300');
    await setPublic(up.id, 0);
    expect((await get(`/${up.shortCode}`)).statusCode).toBe(404);
    const owner = await get(`/${up.shortCode}`, auth);
    expect(owner.statusCode).toBe(200);
    expect(owner.headers['cache-control']).toBe('private, no-cache');
    expect(owner.rawPayload.equals(data)).toBe(true);
    // And public again.
    await setPublic(up.id, 1);
    const again = await get(`/${up.shortCode}`);
    expect(again.statusCode).toBe(200);
    expect(again.headers['cache-control']).toBe('public, max-age=300');
  });

  it('deleted: 404 from the next request, though its bytes were just served', async () => {
    const up = await put(crypto.randomBytes(2000));
    await served(`/${up.shortCode}`);
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${up.id}`,
      headers: auth,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await get(`/${up.shortCode}`)).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'HEAD', url: `/${up.shortCode}` })).statusCode).toBe(
      404,
    );
  });

  it('deleted by another instance (its rows gone from the database): 404 at once', async () => {
    const up = await put(crypto.randomBytes(2000));
    await served(`/${up.shortCode}`);
    await ctx.handle.db.deleteFrom('uploads').where('id', '=', up.id).execute();
    expect((await get(`/${up.shortCode}`)).statusCode).toBe(404);
  });

  it('changed by hand in the database: answered as it is now from the next request', async () => {
    const up = await put(crypto.randomBytes(2000));
    await served(`/${up.shortCode}`);
    await setPublic(up.id, 0);
    expect(await statusOf(`/${up.shortCode}`)).toBe(404);
    // A slug moved by hand: the old one stops, the new one serves.
    await setPublic(up.id, 1);
    expect(await statusOf(`/${up.shortCode}`)).toBe(200);
    await served(`/${up.shortCode}`);
    await ctx.handle.db
      .updateTable('slugs')
      .set({ slug: 'moved-by-hand' })
      .where('slug', '=', up.shortCode.toLowerCase())
      .execute();
    expect(await statusOf(`/${up.shortCode}`)).toBe(404);
    expect((await get('/moved-by-hand')).statusCode).toBe(200);
  });

  it('renamed link: the old vanity URL is gone at once, the new one serves', async () => {
    const data = crypto.randomBytes(1500);
    const up = await put(data);
    const patch = (vanityUrl: string) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/uploads/${up.id}`,
        headers: auth,
        payload: { vanityUrl },
      });
    expect((await patch('first-name')).statusCode).toBe(200);
    await served('/first-name');
    expect((await patch('second-name')).statusCode).toBe(200);
    expect((await get('/first-name')).statusCode).toBe(404);
    const res = await get('/second-name');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(data)).toBe(true);
  });
});

describe('how long a public file may be kept outside Upshot', () => {
  it('is PUBLIC_MAX_AGE_SECONDS, on files and thumbnails; a private one is never kept', async () => {
    const short = await createTestContext({ PUBLIC_MAX_AGE_SECONDS: '60' });
    try {
      const { auth: owner } = await signIn(short);
      const image = await sharp({
        create: { width: 20, height: 20, channels: 3, background: '#123' },
      })
        .png()
        .toBuffer();
      const upload = async (isPublic: string) => {
        const res = await uploadFile(
          short,
          owner,
          { filename: 'p.png', data: image },
          { isPublic },
        );
        expect(res.statusCode, res.body).toBe(201);
        return res.json<{ upload: Uploaded }>().upload;
      };
      const open = await upload('true');
      const hidden = await upload('false');
      await short.background.drain();
      const cacheOf = async (url: string, headers: Record<string, string> = {}) => {
        const res = await short.app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, url).toBe(200);
        return res.headers['cache-control'];
      };
      expect(await cacheOf(`/${open.shortCode}`)).toBe('public, max-age=60');
      expect(await cacheOf(`/thumb/${open.shortCode}`)).toBe('public, max-age=60');
      expect(await cacheOf(`/${hidden.shortCode}`, owner)).toBe('private, no-cache');
      expect(await cacheOf(`/thumb/${hidden.shortCode}`, owner)).toBe('private, no-cache');
    } finally {
      await short.close();
    }
  });
});
