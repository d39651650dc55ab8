/**
 * Signed links: a signature opens one private upload's file (or only its thumbnail) until it
 * expires, by GET, HEAD or a range, through its short code or its vanity URL; nothing else. It
 * cannot be stretched past its expiry, moved to another upload or kind, edited, repeated or
 * used on the API, and a deletion link's signature is not one (nor the other way round).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { ACCESS_URL_TTL_MS } from './urls.ts';

let ctx: TestContext;
let owner: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signIn(ctx);
});
afterAll(() => ctx.close());

type Up = { id: string; shortCode: string; thumbnailUrl: string | null };
type Access = { url: string; previewUrl: string; thumbnailUrl: string; expiresAt: string };

const local = (url: string) => url.replace(ctx.config.publicUrl, '');
const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  ctx.app.inject({ method, url: local(url), headers });
const status = async (url: string) => (await get(url)).statusCode;

/** A new private PNG (its thumbnail made) and its signed links. */
async function privatePng(): Promise<{ up: Up; data: Buffer; access: Access }> {
  const data = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#123' } })
    .png()
    .toBuffer();
  const res = await uploadFile(
    ctx,
    owner.auth,
    { filename: 'secret.png', contentType: 'image/png', data },
    { isPublic: 'false' },
  );
  expect(res.statusCode, res.body).toBe(201);
  await ctx.background.drain();
  const up = res.json<{ upload: Up }>().upload;
  const access = await get(`/api/uploads/${up.id}/access-url`, owner.auth);
  expect(access.statusCode).toBe(200);
  return { up, data, access: access.json<Access>() };
}

/** The link's query with one parameter changed. */
function withParam(url: string, name: string, value: string): string {
  const u = new URL(url);
  u.searchParams.set(name, value);
  return `${u.pathname}?${u.searchParams}`;
}
const param = (url: string, name: string) => new URL(url).searchParams.get(name)!;

describe('a signed link', () => {
  it('opens its private file and thumbnail by GET, HEAD and a range, until it expires', async () => {
    const { up, data, access } = await privatePng();
    expect(Date.parse(access.expiresAt)).toBe(Number(param(access.url, 'expires')));
    expect(await status(`/${up.shortCode}`)).toBe(404);

    const whole = await get(access.url);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(data)).toBe(true);
    expect(whole.headers['cache-control']).toBe('private, no-cache');
    expect((await get(access.url, {}, 'HEAD')).statusCode).toBe(200);
    const part = await get(access.url, { range: 'bytes=1-3' });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(data.subarray(1, 4))).toBe(true);
    const thumb = await get(access.thumbnailUrl);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');

    // Still good a second before it expires, and as often as it is used until then...
    ctx.clock.advance(ACCESS_URL_TTL_MS - 1000);
    expect([await status(access.url), await status(access.url)]).toEqual([200, 200]);
    expect(await status(access.thumbnailUrl)).toBe(200);
    // ...and never after.
    ctx.clock.advance(2000);
    expect(await status(access.url)).toBe(404);
    expect(await status(access.thumbnailUrl)).toBe(404);
    expect((await get(access.url, {}, 'HEAD')).statusCode).toBe(404);
    expect((await get(access.url, { range: 'bytes=1-3' })).statusCode).toBe(404);
  });

  it('opens the file through its vanity URL too', async () => {
    const { up } = await privatePng();
    const vanity = `signed-${up.shortCode}`;
    const set = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/uploads/${up.id}`,
      headers: owner.auth,
      payload: { vanityUrl: vanity },
    });
    expect(set.statusCode).toBe(200);
    const access = (await get(`/api/uploads/${up.id}/access-url`, owner.auth)).json<Access>();
    expect(new URL(access.url).pathname).toBe(`/${vanity}`);
    expect(await status(access.url)).toBe(200);
    expect(await status(`/${up.shortCode}${new URL(access.url).search}`)).toBe(200);
    expect(await status(`/${vanity}`)).toBe(404);
  });

  it('cannot be stretched past its expiry, or edited', async () => {
    const { access } = await privatePng();
    const expires = Number(param(access.url, 'expires'));
    const signature = param(access.url, 'signature');
    const later = String(expires + 24 * 60 * 60 * 1000);
    const tampered = [
      withParam(access.url, 'expires', later),
      withParam(access.thumbnailUrl, 'expires', later),
      withParam(access.url, 'expires', String(expires - 1)),
      withParam(access.url, 'expires', `${expires}.0`),
      withParam(access.url, 'signature', signature.toUpperCase()),
      withParam(access.url, 'signature', signature.slice(0, -1)),
      withParam(access.url, 'signature', `${signature}0`),
      withParam(
        access.url,
        'signature',
        `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`,
      ),
      withParam(access.url, 'signature', ''),
      `${new URL(access.url).pathname}?expires=${expires}`,
      `${new URL(access.url).pathname}?signature=${signature}`,
      // Repeated parameters arrive as lists: refused, not a server error.
      `${new URL(access.url).pathname}?expires=${expires}&expires=${expires}&signature=${signature}`,
      `${new URL(access.url).pathname}?expires=${expires}&signature=${signature}&signature=${signature}`,
    ];
    const answers = await Promise.all(tampered.map(async (url) => `${await status(url)} ${url}`));
    expect(answers.filter((a) => !a.startsWith('404 '))).toEqual([]);
    expect(await status(access.url)).toBe(200);
  });

  it('opens nothing else: another upload, the other kind, the API, a deletion', async () => {
    const a = await privatePng();
    const b = await privatePng();
    const fileQuery = new URL(a.access.url).search;
    const thumbQuery = new URL(a.access.thumbnailUrl).search;
    expect(await status(`/${b.up.shortCode}${fileQuery}`)).toBe(404);
    expect(await status(`/thumb/${b.up.shortCode}${thumbQuery}`)).toBe(404);
    expect(await status(`/thumb/${a.up.shortCode}${fileQuery}`)).toBe(404);
    expect(await status(`/${a.up.shortCode}${thumbQuery}`)).toBe(404);
    expect(await status(`/api/uploads/${a.up.id}${fileQuery}`)).toBe(401);
    expect(await status(`/api/uploads/${a.up.id}/access-url${fileQuery}`)).toBe(401);

    // The file's signature is no deletion link, and the deletion link's opens no file.
    const deleteWithFileSignature = await ctx.app.inject({
      method: 'POST',
      url: `/d/${a.up.id}`,
      payload: { signature: param(a.access.url, 'signature') },
    });
    expect(deleteWithFileSignature.statusCode).toBeGreaterThanOrEqual(400);
    expect(await status(a.access.url)).toBe(200);
    const row = await ctx.handle.db
      .selectFrom('uploads')
      .select('id')
      .where('id', '=', a.up.id)
      .executeTakeFirst();
    expect(row?.id).toBe(a.up.id);
  });

  it('stops opening the file once it is deleted', async () => {
    const { up, access } = await privatePng();
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${up.id}`,
      headers: owner.auth,
    });
    expect(del.statusCode).toBe(204);
    expect(await status(access.url)).toBe(404);
    expect(await status(access.thumbnailUrl)).toBe(404);
  });
});

describe('a signed preview page', () => {
  it("carries the file's signature: it opens the page until the file's link stops", async () => {
    const { up, access } = await privatePng();
    const query = new URL(access.url).search;
    expect(access.previewUrl).toBe(`${ctx.config.publicUrl}/v/${up.shortCode}${query}`);
    expect(await status(`/v/${up.shortCode}`)).toBe(404);
    const page = await get(access.previewUrl);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('secret.png');
    // Neither the thumbnail's signature nor another upload's opens it.
    const other = await privatePng();
    expect(await status(`/v/${up.shortCode}${new URL(access.thumbnailUrl).search}`)).toBe(404);
    expect(await status(`/v/${other.up.shortCode}${query}`)).toBe(404);

    ctx.clock.advance(ACCESS_URL_TTL_MS + 1000);
    expect(await status(access.previewUrl)).toBe(404);
  });

  it("is the vanity URL's page, and skips the password and the view limit as the file's does", async () => {
    const res = await uploadFile(
      ctx,
      owner.auth,
      { filename: 'guarded.txt', contentType: 'text/plain', data: Buffer.from('guarded words') },
      { maxViews: '1', password: 'open sesame' },
    );
    expect(res.statusCode, res.body).toBe(201);
    const up = res.json<{ upload: Up }>().upload;
    const vanity = `page-${up.shortCode}`;
    const set = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/uploads/${up.id}`,
      headers: owner.auth,
      payload: { vanityUrl: vanity },
    });
    expect(set.statusCode).toBe(200);
    const access = (await get(`/api/uploads/${up.id}/access-url`, owner.auth)).json<Access>();
    expect(new URL(access.previewUrl).pathname).toBe(`/v/${vanity}`);
    expect(new URL(access.previewUrl).search).toBe(new URL(access.url).search);
    // Unsigned, a visitor meets the password form; signed, the page and its text.
    expect(await status(`/v/${vanity}`)).toBe(401);
    const page = await get(access.previewUrl);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('guarded.txt');
    expect(await status(access.url)).toBe(200);
    expect(await status(access.previewUrl)).toBe(200);
  });
});

describe("the thumbnail links of an owner's listing", () => {
  it('open only thumbnails, for an hour or two', async () => {
    const { up } = await privatePng();
    const list = await get('/api/uploads?search=secret&limit=100', owner.auth);
    const listed = list.json<{ uploads: Up[] }>().uploads.find((u) => u.id === up.id)!;
    const thumbnailUrl = listed.thumbnailUrl!;
    expect(await status(thumbnailUrl)).toBe(200);
    expect(await status(`/${up.shortCode}${new URL(thumbnailUrl).search}`)).toBe(404);
    const left = Number(param(thumbnailUrl, 'expires')) - ctx.clock.now().getTime();
    expect(left).toBeGreaterThan(60 * 60 * 1000);
    expect(left).toBeLessThanOrEqual(2 * 60 * 60 * 1000);
    ctx.clock.advance(left + 1000);
    expect(await status(thumbnailUrl)).toBe(404);
  });
});
