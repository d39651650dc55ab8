/**
 * GET /api/oembed: oEmbed 1.0 for a preview page or a file link: a photo, a video or a link
 * by type, within maxwidth and maxheight; 404 for a link that does not exist or that not
 * everyone may open; 501 for XML; 400 naming the field for a url that is not one of this
 * server's links.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { uploadWith, visitor, type Auth } from '../../../test/links.ts';
import { testVideo } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { ffmpegAvailable } from '../uploads/thumbnails.ts';

let ctx: TestContext;
let owner: Auth;
let png: Buffer;
beforeAll(async () => {
  ctx = await createTestContext();
  ({ auth: owner } = await signIn(ctx));
  png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#27c' } })
    .png()
    .toBuffer();
});
afterAll(() => ctx.close());

const upload = (name: string, type: string, data: Buffer | string, fields = {}) =>
  uploadWith(ctx, owner, fields, { filename: name, contentType: type, data: Buffer.from(data) });
const oembed = (query: Record<string, string>) =>
  ctx.app.inject({ method: 'GET', url: `/api/oembed?${new URLSearchParams(query)}` });
const pageOf = (slug: string) => `${ctx.config.publicUrl}/v/${slug}`;
const fileOf = (slug: string) => `${ctx.config.publicUrl}/${slug}`;
const PROVIDER = { version: '1.0', provider_name: 'Upshot' };

describe('GET /api/oembed', () => {
  it('answers a photo for a picture, by its page or its file, within maxwidth and maxheight', async () => {
    const up = await upload('wide.png', 'image/png', png);
    await ctx.background.drain();
    for (const url of [pageOf(up.shortCode), fileOf(up.shortCode)]) {
      const res = await oembed({ url, format: 'json' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.json()).toEqual({
        ...PROVIDER,
        type: 'photo',
        title: 'wide.png',
        provider_url: `${ctx.config.publicUrl}/`,
        url: fileOf(up.shortCode),
        width: 800,
        height: 600,
      });
    }
    const small = (await oembed({ url: pageOf(up.shortCode), maxwidth: '400' })).json();
    expect([small.width, small.height]).toEqual([400, 300]);
    const short = (await oembed({ url: pageOf(up.shortCode), maxheight: '150' })).json();
    expect([short.width, short.height]).toEqual([200, 150]);
  });

  it.skipIf(!ffmpegAvailable() || !ffmpegAvailable('ffprobe'))(
    "answers a video with the browser's player, its size and its thumbnail",
    async () => {
      const up = await upload('clip.mp4', 'video/mp4', testVideo());
      await ctx.background.drain();
      const body = (await oembed({ url: pageOf(up.shortCode) })).json();
      expect(body).toMatchObject({
        ...PROVIDER,
        type: 'video',
        title: 'clip.mp4',
        width: 640,
        height: 360,
        thumbnail_url: `${ctx.config.publicUrl}/thumb/${up.shortCode}`,
        thumbnail_width: 400,
        thumbnail_height: 225,
      });
      expect(body.html).toBe(
        `<video src="${fileOf(up.shortCode)}" width="640" height="360" controls preload="metadata"></video>`,
      );
    },
  );

  it('answers a link for anything else, and for a view-limited picture', async () => {
    const text = await upload('notes.txt', 'text/plain', 'notes');
    const limited = await upload('limited.png', 'image/png', png, { maxViews: '3' });
    await ctx.background.drain();
    for (const up of [text, limited]) {
      const res = await oembed({ url: pageOf(up.shortCode) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        ...PROVIDER,
        type: 'link',
        title: up.originalFilename,
        provider_url: `${ctx.config.publicUrl}/`,
      });
    }
    const left = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${limited.id}`,
      headers: owner,
    });
    expect(left.json().viewsLeft).toBe(3);
  });

  it('answers 404 for a link that does not exist, is private, has a password, expired or is used up', async () => {
    const hidden = await upload('hidden.png', 'image/png', png, { isPublic: 'false' });
    const locked = await upload('locked.png', 'image/png', png, { password: 'no embeds' });
    const expiring = await upload('soon.png', 'image/png', png, { expires: '1h' });
    const once = await upload('once.png', 'image/png', png, { maxViews: '1' });
    expect((await visitor(ctx).get(`/${once.shortCode}`)).statusCode).toBe(200);
    ctx.clock.advance(60 * 60 * 1000 + 1);
    for (const slug of [
      'nosuch',
      hidden.shortCode,
      locked.shortCode,
      expiring.shortCode,
      once.shortCode,
    ]) {
      const res = await oembed({ url: pageOf(slug) });
      expect(res.statusCode, slug).toBe(404);
      expect(res.json().error).toBe('not_found');
      // The owner's session changes nothing: the credentials are not read.
      const own = await ctx.app.inject({
        method: 'GET',
        url: `/api/oembed?url=${encodeURIComponent(pageOf(slug))}`,
        headers: owner,
      });
      expect(own.statusCode).toBe(404);
    }
  });

  it('answers 501 for XML, and 400 naming the field for a url that is not a link here', async () => {
    const up = await upload('a.png', 'image/png', png);
    const xml = await oembed({ url: pageOf(up.shortCode), format: 'xml' });
    expect(xml.statusCode).toBe(501);
    expect(xml.json().error).toBe('not_implemented');
    const bad: [Record<string, string>, string][] = [
      [{}, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'ftp://localhost/abc' }, 'url'],
      [{ url: 'https://elsewhere.example/v/abc' }, 'url'],
      [{ url: `${ctx.config.publicUrl}/api/health` }, 'url'],
      [{ url: `${ctx.config.publicUrl}/v/a/b` }, 'url'],
      [{ url: `${ctx.config.publicUrl}/v/%zz` }, 'url'],
      [{ url: `${ctx.config.publicUrl}/%E0%A4` }, 'url'],
      [{ url: pageOf(up.shortCode), format: 'yaml' }, 'format'],
      [{ url: pageOf(up.shortCode), maxwidth: '0' }, 'maxwidth'],
      [{ url: pageOf(up.shortCode), maxheight: 'tall' }, 'maxheight'],
    ];
    for (const [query, field] of bad) {
      const res = await oembed(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().message, JSON.stringify(query)).toContain(field);
    }
  });
});
