import fs from 'node:fs';
import { CHUNK_SIZE, MAX_SIMPLE_UPLOAD_BYTES, ServerConfig } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { signIn } from '../../../test/users.ts';

const version = (
  JSON.parse(fs.readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

describe('GET /api/config', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      PUBLIC_URL: 'https://files.example.org/',
      MAX_UPLOAD_BYTES: String(5 * 1024 ** 3),
    });
  });
  afterAll(() => ctx.close());

  it('answers the configuration to anyone, without credentials', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      // Without the trailing slash, as links are built from it.
      publicUrl: 'https://files.example.org',
      // Links to user content start there too, unless CONTENT_URL says otherwise.
      contentUrl: 'https://files.example.org',
      chunkSize: CHUNK_SIZE,
      maxSimpleUploadBytes: MAX_SIMPLE_UPLOAD_BYTES,
      maxUploadBytes: 5 * 1024 ** 3,
      version,
    });
    expect(Object.keys(res.json()).sort()).toEqual(Object.keys(ServerConfig.shape).sort());
    // The web app reads it at start: a stale copy could point it at an old chunk size.
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers the same to a signed-in user, and ignores a credential that is not valid', async () => {
    const anonymous = (await ctx.app.inject({ method: 'GET', url: '/api/config' })).json();
    const { auth } = await signIn(ctx);
    const signedIn = await ctx.app.inject({ method: 'GET', url: '/api/config', headers: auth });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual(anonymous);
    const bogus = await ctx.app.inject({
      method: 'GET',
      url: '/api/config',
      headers: { authorization: 'Bearer expired-or-made-up' },
    });
    expect(bogus.statusCode).toBe(200);
    expect(bogus.json()).toEqual(anonymous);
  });
});

describe('GET /api/config on a server with other settings', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(
      { PUBLIC_URL: 'http://127.0.0.1:8080', MAX_UPLOAD_BYTES: '1048576' },
      {},
      { chunkSize: 64 * 1024 },
    );
  });
  afterAll(() => ctx.close());

  it('follows them: the links origin, the size limit and the chunk size in use', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json()).toMatchObject({
      publicUrl: 'http://127.0.0.1:8080',
      maxUploadBytes: 1048576,
      chunkSize: 64 * 1024,
    });
    // What init answers agrees with what the config announced.
    const { auth } = await signIn(ctx);
    const init = await ctx.app.inject({
      method: 'POST',
      url: '/api/chunked-upload/init',
      headers: auth,
      payload: { filename: 'a.bin', totalSize: 100 * 1024, totalChunks: 2 },
    });
    expect(init.statusCode).toBe(201);
    expect(init.json().chunkSize).toBe(res.json().chunkSize);
  });
});
