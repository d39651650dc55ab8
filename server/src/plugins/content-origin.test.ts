/**
 * User content on its own origin (CONTENT_URL beside PUBLIC_URL), both names sent to one server:
 * every link, thumbnail, preview page and oEmbed answer names the content origin; the app's
 * origin answers those paths with a redirect and never serves user bytes (told by Host alone); the content origin
 * serves nothing of the app but the preview page's own files.
 */
import { ROUTES } from '@upshot/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { uploadWith, type Auth } from '../../test/links.ts';
import { signIn } from '../../test/users.ts';
import { createWebDist, PREVIEW_FILES, type WebDist } from '../../test/web-dist.ts';

const APP = 'https://app.example.com';
const CONTENT = 'https://u.example.com';
const APP_HOST = 'app.example.com';
const CONTENT_HOST = 'u.example.com';

let ctx: TestContext;
let dist: WebDist;
let owner: Auth;
beforeAll(async () => {
  dist = createWebDist({ preview: true });
  ctx = await createTestContext(
    { PUBLIC_URL: APP, CONTENT_URL: CONTENT, TRUST_PROXY: 'true' },
    { webDistDir: dist.dir },
  );
  ({ auth: owner } = await signIn(ctx));
});
afterAll(async () => {
  await ctx.close();
  dist.remove();
});

const path = (url: string) => url.slice(new URL(url).origin.length);
const on = (host: string, url: string, method: 'GET' | 'HEAD' | 'POST' = 'GET', payload?: string) =>
  ctx.app.inject({
    method,
    url,
    headers: {
      host,
      ...(payload === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    payload,
  });

describe('with CONTENT_URL', () => {
  it('counts every route that serves an upload’s bytes as user content', () => {
    const routes = Object.values(ROUTES) as { servesUploadBytes?: true; userContent?: true }[];
    const bytes = routes.filter((r) => r.servesUploadBytes);
    expect(bytes.length).toBeGreaterThan(0);
    for (const route of bytes) expect(route.userContent, JSON.stringify(route)).toBe(true);
  });

  it('hands out every link to user content on the content origin; deletion stays the app’s', async () => {
    const up = await uploadWith(ctx, owner, { isPublic: 'false' });
    expect(up.url).toBe(`${CONTENT}/${up.shortCode}`);
    expect(up.previewUrl).toBe(`${CONTENT}/v/${up.shortCode}`);
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${up.id}/access-url`,
      headers: { ...owner, host: APP_HOST },
    });
    const access = res.json<{ url: string; previewUrl: string }>();
    expect(access.url.startsWith(`${CONTENT}/${up.shortCode}?`)).toBe(true);
    expect(access.previewUrl.startsWith(`${CONTENT}/v/${up.shortCode}?`)).toBe(true);
    // The signed link opens on the content origin, and is sent there from the app's.
    expect((await on(CONTENT_HOST, path(access.url))).statusCode).toBe(200);
    const moved = await on(APP_HOST, path(access.url));
    expect(moved.statusCode).toBe(307);
    expect(moved.headers.location).toBe(access.url);

    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { ...owner, host: APP_HOST, 'content-type': 'multipart/form-data; boundary=x' },
      payload:
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhi\r\n--x--\r\n',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<{ deletionUrl: string }>().deletionUrl.startsWith(`${APP}/d/`)).toBe(true);

    const config = await on(APP_HOST, '/api/config');
    expect(config.json()).toMatchObject({ publicUrl: APP, contentUrl: CONTENT });
    // The app's pages may show pictures and media from the content origin.
    expect(String(config.headers['content-security-policy'])).toMatch(
      new RegExp(`img-src [^;]*${CONTENT.replace(/\./g, '\\.')}`),
    );
  });

  it('serves a link, its thumbnail and its page only on the content origin', async () => {
    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const up = await uploadWith(
      ctx,
      owner,
      {},
      { filename: 'pic.png', contentType: 'image/png', data: png },
    );
    await ctx.background.drain(); // its thumbnail made
    const served = [
      [`/${up.shortCode}`, 'image/png'],
      [`/v/${up.shortCode}`, 'text/html; charset=utf-8'],
      [`/thumb/${up.shortCode}`, 'image/webp'],
    ] as const;
    for (const [link, type] of served) {
      const there = await on(CONTENT_HOST, link);
      expect(there.statusCode, link).toBe(200);
      expect(there.headers['content-type'], link).toBe(type);
      for (const method of ['GET', 'HEAD'] as const) {
        const here = await on(APP_HOST, `${link}?download`, method);
        expect(here.statusCode, `${method} ${link}`).toBe(307);
        expect(here.headers.location).toBe(`${CONTENT}${link}?download`);
        // Not kept for ever: CONTENT_URL may change.
        expect(here.headers['cache-control']).toBe('no-cache');
        expect(here.rawPayload.length).toBe(0);
      }
    }
    expect((await on(CONTENT_HOST, `/${up.shortCode}`)).rawPayload.equals(png)).toBe(true);
    // The origin is the Host the request was sent to: an X-Forwarded-Host a client adds (a
    // proxy that does not set it passes it on) changes nothing, either way.
    const forged = (host: string, forwarded: string, url: string) =>
      ctx.app.inject({ method: 'GET', url, headers: { host, 'x-forwarded-host': forwarded } });
    expect((await forged(APP_HOST, CONTENT_HOST, `/${up.shortCode}`)).statusCode).toBe(307);
    const login = await forged(CONTENT_HOST, APP_HOST, '/login');
    expect(login.statusCode).toBe(404);
    expect(login.body).not.toContain('<div id="root">');
  });

  it('sends a password form posted to the app on to the content origin, where it unlocks', async () => {
    const up = await uploadWith(ctx, owner, { password: 'open sesame' });
    const here = await on(APP_HOST, `/${up.shortCode}`, 'POST', 'password=open+sesame');
    expect(here.statusCode).toBe(307); // the method and body go on as they were
    expect(here.headers.location).toBe(`${CONTENT}/${up.shortCode}`);
    expect(here.headers['set-cookie']).toBeUndefined();
    const there = await ctx.app.inject({
      method: 'POST',
      url: `/${up.shortCode}`,
      headers: {
        host: CONTENT_HOST,
        origin: CONTENT,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'password=open+sesame',
    });
    expect(there.statusCode).toBe(303);
    expect(String(there.headers['set-cookie'])).toMatch(/; Secure/);
  });

  it('serves nothing of the app on the content origin but the preview page’s files', async () => {
    // A link that does not exist is not the app's not-found page there either.
    const missing = await on(CONTENT_HOST, '/no-such-link');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(missing.body).toContain('This link does not exist');
    expect(missing.body).not.toContain('<div id="root">');
    for (const url of ['/api/health', '/api/config', '/api/auth/me', '/login', '/uploads']) {
      const res = await on(CONTENT_HOST, url);
      expect(res.statusCode, url).toBe(404);
    }
    expect((await on(CONTENT_HOST, '/assets/index-abc123.js')).statusCode).toBe(404);
    expect((await on(CONTENT_HOST, '/favicon.svg')).statusCode).toBe(404);
    for (const file of PREVIEW_FILES) {
      expect((await on(CONTENT_HOST, file)).statusCode, file).toBe(200);
    }
    const root = await on(CONTENT_HOST, '/');
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe(`${APP}/`);
    // The app goes on as before on its own origin.
    expect((await on(APP_HOST, '/api/health')).statusCode).toBe(200);
    expect((await on(APP_HOST, '/login')).statusCode).toBe(200);
    expect((await on(APP_HOST, '/assets/index-abc123.js')).statusCode).toBe(200);
  });

  it('answers oEmbed for a content link, or an app link of before, with content links', async () => {
    const up = await uploadWith(ctx, owner, {}, { filename: 'note.txt', data: Buffer.from('hi') });
    for (const origin of [CONTENT, APP]) {
      const res = await on(
        APP_HOST,
        `/api/oembed?url=${encodeURIComponent(`${origin}/v/${up.shortCode}`)}&format=json`,
      );
      expect(res.statusCode, origin).toBe(200);
      expect(res.json()).toMatchObject({ type: 'link', provider_url: `${APP}/` });
    }
    const page = await on(CONTENT_HOST, `/v/${up.shortCode}`);
    expect(page.body).toContain(
      `${APP}/api/oembed?url=${encodeURIComponent(`${CONTENT}/v/${up.shortCode}`)}`,
    );
    expect(page.body).toContain(`content="${CONTENT}/v/${up.shortCode}"`);
  });
});
