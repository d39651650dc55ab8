import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SPA_ROUTES } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.ts';

let ctx: TestContext;
let dist: string;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
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
