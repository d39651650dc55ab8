import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SPA_ROUTES } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.ts';

let ctx: TestContext;
let dist: string;
/** A hashed script with the .br and .gz the build writes beside it. */
const script = Buffer.from('export const greet = (name) => `hello ${name}`;\n'.repeat(200));
const scriptUrl = '/assets/page-def456.js';
const index = '<!doctype html><div id="root"></div>';
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), index);
  fs.writeFileSync(path.join(dist, 'index.html.br'), zlib.brotliCompressSync(index));
  fs.writeFileSync(path.join(dist, 'index.html.gz'), zlib.gzipSync(index));
  fs.writeFileSync(path.join(dist, scriptUrl), script);
  fs.writeFileSync(path.join(dist, `${scriptUrl}.br`), zlib.brotliCompressSync(script));
  fs.writeFileSync(path.join(dist, `${scriptUrl}.gz`), zlib.gzipSync(script));
  fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
  fs.mkdirSync(path.join(dist, '.vite'));
  fs.writeFileSync(path.join(dist, '.vite', 'manifest.json'), '{}');
  ctx = await createTestContext({}, { webDistDir: dist });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('web app serving', () => {
  it.each([...SPA_ROUTES])('answers the SPA route %s with index.html, not cached', async (url) => {
    const res = await ctx.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe('console.log(1)');
  });

  it('serves root files of the build without the long cache', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  });

  it('does not serve the build manifest', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/.vite/manifest.json' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toBe('{}');
  });

  it('answers an unknown page with index.html and a 404 status, so the app draws its not-found page', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/no/such/page' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<div id="root">');
  });

  it('answers an unknown asset or API route with a JSON 404, never the page', async () => {
    const api = await ctx.app.inject({ method: 'POST', url: '/api/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'not_found', message: 'No route for POST /api/unknown' });
    const bare = await ctx.app.inject({ method: 'GET', url: '/api' });
    expect(bare.statusCode).toBe(404);
    expect(bare.json().error).toBe('not_found');
  });
});

describe('compressed web app files', () => {
  const get = (url: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: 'GET',
      url,
      headers:
        acceptEncoding === undefined ? headers : { 'accept-encoding': acceptEncoding, ...headers },
    });

  it('sends a hashed script as brotli to a browser that accepts it, cached for a year', async () => {
    const res = await get(scriptUrl, 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(script.length / 10);
    expect(zlib.brotliDecompressSync(res.rawPayload)).toEqual(script);
    // A cache revalidating one representation must not be told it holds the other.
    expect(res.headers['etag']).not.toBe((await get(scriptUrl)).headers['etag']);
  });

  it('sends gzip to a browser that accepts only gzip', async () => {
    const res = await get(scriptUrl, 'gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.gunzipSync(res.rawPayload)).toEqual(script);
  });

  it.each([
    ['no Accept-Encoding', undefined],
    ['identity only', 'identity'],
    ['brotli and gzip refused', 'br;q=0, gzip;q=0'],
  ])('sends the file itself with %s, still varying on Accept-Encoding', async (_label, accept) => {
    const res = await get(scriptUrl, accept);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload).toEqual(script);
  });

  it('answers a range and HEAD from the representation it chose', async () => {
    const range = await get(scriptUrl, 'br', { range: 'bytes=0-9' });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-encoding']).toBe('br');
    // The bytes of the .br file itself (RFC 9110: a range is of the selected representation).
    const stored = fs.readFileSync(path.join(dist, `${scriptUrl}.br`));
    expect(range.headers['content-range']).toBe(`bytes 0-9/${stored.length}`);
    expect(range.rawPayload).toEqual(stored.subarray(0, 10));

    const plain = await get(scriptUrl, undefined, { range: 'bytes=7-11' });
    expect(plain.statusCode).toBe(206);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.toString()).toBe('const');

    const head = await ctx.app.inject({
      method: 'HEAD',
      url: scriptUrl,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.headers['vary']).toMatch(/accept-encoding/i);
    expect(Number(head.headers['content-length'])).toBe(
      fs.statSync(path.join(dist, `${scriptUrl}.gz`)).size,
    );
    expect(head.rawPayload.length).toBe(0);
  });

  it('sends index.html compressed on an SPA route, and never cached without revalidation', async () => {
    const page = await get('/login', 'gzip, deflate, br');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['vary']).toMatch(/accept-encoding/i);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(page.rawPayload).toString()).toBe(index);

    const missing = await get('/no/such/page', 'gzip');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-encoding']).toBe('gzip');
    expect(missing.headers['cache-control']).toBe('no-cache');
    expect(zlib.gunzipSync(missing.rawPayload).toString()).toBe(index);
  });
});
