/** Preferences: the defaults, partial changes, refusals that change nothing, and the default privacy of uploads. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initChunked, sessionRow } from '../../../test/chunked-uploads.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;
const get = async (auth: Auth) => {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/preferences', headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json().preferences;
};
const patch = (auth: Auth, payload: unknown) =>
  ctx.app.inject({
    method: 'PATCH',
    url: '/api/preferences',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

const DEFAULTS = {
  defaultUploadPrivacy: true,
  emailNotifications: true,
  theme: 'system',
  uploadsPerPage: 20,
  defaultExpiry: 'never',
  defaultMaxViews: null,
  stripMetadata: true,
  linkStyle: 'raw',
  embedTitle: '{filename}',
  embedSiteName: 'Upshot',
  embedColor: '#0a0a0a',
};

describe('GET and PATCH /api/preferences', () => {
  it('answers the defaults until changed, then changes only what was sent', async () => {
    const { auth } = await signIn(ctx);
    expect(await get(auth)).toEqual(DEFAULTS);

    const res = await patch(auth, { theme: 'dark' });
    expect(res.statusCode).toBe(200);
    expect(res.json().preferences).toEqual({ ...DEFAULTS, theme: 'dark' });
    const changed = {
      ...DEFAULTS,
      theme: 'dark',
      uploadsPerPage: 50,
      emailNotifications: false,
      stripMetadata: false,
    };
    const change = { uploadsPerPage: 50, emailNotifications: false, stripMetadata: false };
    expect((await patch(auth, change)).json()).toEqual({ preferences: changed });
    expect(await get(auth)).toEqual(changed);
    expect((await patch(auth, {})).json().preferences).toEqual(changed);

    // Another user's are their own.
    const other = await signIn(ctx);
    expect(await get(other.auth)).toEqual(DEFAULTS);
  });

  it('refuses a value out of range or of the wrong type, naming the field, and changes nothing', async () => {
    const { auth } = await signIn(ctx);
    await patch(auth, { uploadsPerPage: 30 });
    const before = await get(auth);
    const bad: [Record<string, unknown>, string][] = [
      [{ uploadsPerPage: 9 }, 'uploadsPerPage'],
      [{ uploadsPerPage: 101 }, 'uploadsPerPage'],
      [{ uploadsPerPage: 20.5 }, 'uploadsPerPage'],
      [{ uploadsPerPage: '20' }, 'uploadsPerPage'],
      [{ uploadsPerPage: null }, 'uploadsPerPage'],
      [{ theme: 'blue' }, 'theme'],
      [{ theme: 'DARK' }, 'theme'],
      [{ defaultUploadPrivacy: 'false' }, 'defaultUploadPrivacy'],
      [{ emailNotifications: 1 }, 'emailNotifications'],
      [{ stripMetadata: 'no' }, 'stripMetadata'],
      [{ stripMetadata: null }, 'stripMetadata'],
      // One good field beside a bad one: neither is applied.
      [{ theme: 'light', uploadsPerPage: 0 }, 'uploadsPerPage'],
      [{ role: 'admin' }, 'role'],
    ];
    for (const [payload, field] of bad) {
      const res = await patch(auth, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toContain(field);
    }
    for (const body of ['[]', '"dark"', 'null']) {
      const res = await ctx.app.inject({
        method: 'PATCH',
        url: '/api/preferences',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: body,
      });
      expect(res.statusCode, body).toBe(400);
    }
    expect(await get(auth)).toEqual(before);
  });

  it('answers 401 without credentials', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/preferences' })).statusCode).toBe(401);
    expect((await patch({}, { theme: 'dark' })).statusCode).toBe(401);
  });
});

describe('defaultUploadPrivacy', () => {
  it('decides the privacy of uploads that do not say, simple and chunked; a stated one wins', async () => {
    const { auth } = await signIn(ctx);
    const file = { filename: 'a.txt', contentType: 'text/plain', data: Buffer.from('a') };
    const isPublic = async (fields: Record<string, string> = {}) => {
      const res = await uploadFile(ctx, auth, file, fields);
      expect(res.statusCode).toBe(201);
      return res.json().upload.isPublic;
    };
    const chunkedIsPublic = async (extra: Record<string, unknown> = {}) => {
      const res = await initChunked(ctx, auth, {
        filename: 'big.bin',
        totalSize: 10,
        totalChunks: 1,
        ...extra,
      });
      expect(res.statusCode).toBe(201);
      return (await sessionRow(ctx, res.json().uploadId))?.is_public === 1;
    };

    expect(await isPublic()).toBe(true);
    expect(await chunkedIsPublic()).toBe(true);
    expect((await patch(auth, { defaultUploadPrivacy: false })).statusCode).toBe(200);
    expect(await isPublic()).toBe(false);
    expect(await chunkedIsPublic()).toBe(false);
    expect(await isPublic({ isPublic: 'true' })).toBe(true);
    expect(await chunkedIsPublic({ isPublic: true })).toBe(true);

    // Only this user's uploads.
    const other = await signIn(ctx);
    const res = await uploadFile(ctx, other.auth, file);
    expect(res.json().upload.isPublic).toBe(true);
  });
});
