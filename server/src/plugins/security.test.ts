/**
 * Security headers: the app's pages carry helmet's policy (no framing, scripts from this origin
 * only); the file links carry the stricter sandbox policy instead, and may be embedded anywhere.
 */
import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { uploadFile } from '../../test/uploads.ts';
import { signIn } from '../../test/users.ts';
import { createWebDist, type WebDist } from '../../test/web-dist.ts';
import { FILE_CSP, fileCsp } from '../modules/links/content-policy.ts';

// Links live on another origin than the app here, as they may in production.
const PUBLIC_URL = 'https://files.example.com';

let ctx: TestContext;
let dist: WebDist;
let owner: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  dist = createWebDist();
  ctx = await createTestContext({ PUBLIC_URL }, { webDistDir: dist.dir });
  owner = await signIn(ctx);
});
afterAll(async () => {
  await ctx.close();
  dist.remove();
});

/** A Content-Security-Policy as directive name -> sources. */
function directives(header: unknown): Map<string, string[]> {
  expect(typeof header, 'exactly one Content-Security-Policy header').toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
}

async function upload(file: { filename: string; contentType: string; data: Buffer }) {
  const res = await uploadFile(ctx, owner.auth, file);
  expect(res.statusCode).toBe(201);
  return res.json<{ upload: { shortCode: string; id: string } }>().upload;
}

describe("the app's pages", () => {
  it.each(['/login', '/', '/dashboard', '/no/such/page'])(
    '%s: a CSP without framing or foreign scripts, a referrer policy, nosniff',
    async (url) => {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      // The app shows thumbnails and files from the links' origin.
      expect(csp.get('img-src')).toContain(PUBLIC_URL);
      expect(csp.get('media-src')).toContain(PUBLIC_URL);
      expect(csp.has('sandbox')).toBe(false);
      expect([
        'no-referrer',
        'same-origin',
        'strict-origin',
        'strict-origin-when-cross-origin',
      ]).toContain(res.headers['referrer-policy']);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('/login is the built page itself', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/login' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
  });

  it('the API answers carry nosniff too', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('the file links', () => {
  const expectFileHeaders = (headers: Record<string, unknown>, what: string) => {
    expect(headers['content-security-policy'], what).toBe(FILE_CSP);
    expect(headers['cross-origin-resource-policy'], what).toBe('cross-origin');
    expect(headers['x-content-type-options'], what).toBe('nosniff');
  };

  it('FILE_CSP is a sandbox that allows nothing to run or load', () => {
    const csp = directives(FILE_CSP);
    expect(csp.get('sandbox')).toEqual([]);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.has('script-src')).toBe(false);
  });

  it("a video's or a song's keeps its origin for the player, and still runs nothing", () => {
    for (const type of ['video/mp4', 'audio/mpeg', 'VIDEO/WEBM']) {
      const csp = directives(fileCsp(type));
      expect(csp.get('sandbox'), type).toEqual(['allow-same-origin']);
      expect(csp.get('default-src')).toEqual(["'none'"]);
      expect(csp.has('script-src')).toBe(false);
    }
    for (const type of ['image/png', 'text/html', 'video', 'application/pdf']) {
      expect(fileCsp(type), type).toBe(FILE_CSP);
    }
  });

  it('an image: its link, a range of it, HEAD, a revalidation and its thumbnail', async () => {
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: 'blue' } })
      .png()
      .toBuffer();
    const image = await upload({ filename: 'blue.png', contentType: 'image/png', data: png });
    const url = `/${image.shortCode}`;

    const get = await ctx.app.inject({ method: 'GET', url });
    expect(get.statusCode).toBe(200);
    expect(get.headers['content-type']).toBe('image/png');
    expectFileHeaders(get.headers, 'GET');

    const range = await ctx.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-9' } });
    expect(range.statusCode).toBe(206);
    expectFileHeaders(range.headers, 'range');

    const head = await ctx.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expectFileHeaders(head.headers, 'HEAD');

    const again = await ctx.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(get.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expectFileHeaders(again.headers, '304');

    await ctx.background.drain(); // thumbnails are made after the upload
    const thumb = await ctx.app.inject({ method: 'GET', url: `/thumb/${image.shortCode}` });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expectFileHeaders(thumb.headers, 'thumbnail');
  });

  it('a large HTML file, streamed as an attachment', async () => {
    const data = Buffer.concat([
      Buffer.from('<script>alert(document.cookie)</script>'),
      crypto.randomBytes(300 * 1024),
    ]);
    const page = await upload({ filename: 'page.html', contentType: 'text/html', data });
    const res = await ctx.app.inject({ method: 'GET', url: `/${page.shortCode}` });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(data.length);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment/);
    expectFileHeaders(res.headers, 'large file');
  });

  it('a custom URL answers with the same headers', async () => {
    const text = await upload({
      filename: 'notes.txt',
      contentType: 'text/plain',
      data: Buffer.from('hello'),
    });
    const set = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/uploads/${text.id}`,
      headers: owner.auth,
      payload: { vanityUrl: 'Security-Notes' },
    });
    expect(set.statusCode).toBe(200);
    const res = await ctx.app.inject({ method: 'GET', url: '/security-notes' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('hello');
    expectFileHeaders(res.headers, 'custom URL');
  });
});
