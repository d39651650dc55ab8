/**
 * The desktop uploaders a user downloads (ShareX config, bash and PowerShell scripts): who may
 * get whose, what each holds, and a ShareX upload done exactly as ShareX does it from the config.
 */
import contentDisposition from 'content-disposition';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { multipart } from '../../../test/uploads.ts';
import { createUser, login, signIn } from '../../../test/users.ts';

const PUBLIC_URL = 'https://up.example.com';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL });
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;
type Kind = 'sharex' | 'bash' | 'powershell';
const EXTENSION: Record<Kind, string> = { sharex: 'sxcu', bash: 'sh', powershell: 'ps1' };
const PATH: Record<Kind, string> = {
  sharex: 'sharex-config',
  bash: 'bash-script',
  powershell: 'powershell-script',
};

const get = (url: string, headers: Auth = {}) => ctx.app.inject({ method: 'GET', url, headers });
const download = (auth: Auth, userId: string, kind: Kind) =>
  get(`/api/users/${userId}/${PATH[kind]}`, auth);
async function apiTokenOf(auth: Auth, userId: string): Promise<string> {
  const res = await get(`/api/users/${userId}`, auth);
  expect(res.statusCode).toBe(200);
  return res.json().apiToken;
}

/** The file name a download is saved under (it must be an attachment). */
function savedAs(res: Awaited<ReturnType<typeof get>>): string {
  const header = res.headers['content-disposition'];
  expect(typeof header).toBe('string');
  const parsed = contentDisposition.parse(header as string);
  expect(parsed.type).toBe('attachment');
  return parsed.parameters.filename!;
}

/** Resolves ShareX's `{json:a.b}` against an answer, as ShareX does. */
function resolveJsonSyntax(template: string, answer: unknown): string {
  return template.replace(/\{json:([^}]+)\}/g, (_, path: string) => {
    let value: unknown = answer;
    for (const key of path.split('.')) {
      value =
        value !== null && typeof value === 'object'
          ? (value as Record<string, unknown>)[key]
          : undefined;
    }
    if (typeof value !== 'string') throw new Error(`{json:${path}} is not a string in the answer`);
    return value;
  });
}

/** A URL on PUBLIC_URL as the app injects it: its path and query. */
function onPublicUrl(url: string): string {
  const parsed = new URL(url);
  expect(parsed.origin).toBe(PUBLIC_URL);
  return parsed.pathname + parsed.search;
}

type ShareXConfig = {
  RequestMethod: string;
  RequestURL: string;
  Headers: Record<string, string>;
  Body: string;
  FileFormName: string;
  URL: string;
  ThumbnailURL: string;
  DeletionURL: string;
  ErrorMessage: string;
  [key: string]: unknown;
};

async function sharexConfigOf(auth: Auth, userId: string): Promise<ShareXConfig> {
  const res = await download(auth, userId, 'sharex');
  expect(res.statusCode).toBe(200);
  return JSON.parse(res.body) as ShareXConfig;
}

/** Posts a file as ShareX does with a custom uploader: method, URL, headers, file field. */
function postAsShareX(
  config: ShareXConfig,
  file: { filename: string; contentType: string; data: Buffer },
) {
  expect(config.Body).toBe('MultipartFormData');
  const body = multipart({}, { field: config.FileFormName, ...file });
  return ctx.app.inject({
    method: config.RequestMethod as 'POST',
    url: onPublicUrl(config.RequestURL),
    headers: { ...config.Headers, ...body.headers },
    payload: body.payload,
  });
}

/** Waits until the background task has made the upload's thumbnail. */
const thumbnailReady = (uploadId: string) =>
  vi.waitFor(
    async () => {
      const row = await ctx.handle.db
        .selectFrom('uploads')
        .select('thumbnail_status')
        .where('id', '=', uploadId)
        .executeTakeFirstOrThrow();
      expect(row.thumbnail_status).toBe('ready');
    },
    { timeout: 15_000, interval: 20 },
  );

const png = (background: string) =>
  sharp({ create: { width: 500, height: 300, channels: 3, background } })
    .png()
    .toBuffer();

describe('the downloads, for the user themself', () => {
  it('answer each file as an attachment named for the user, never cached, with token and URL', async () => {
    const { user, auth } = await signIn(ctx);
    const token = await apiTokenOf(auth, user.id);
    for (const kind of ['sharex', 'bash', 'powershell'] as const) {
      const res = await download(auth, user.id, kind);
      expect(res.statusCode, kind).toBe(200);
      expect(savedAs(res)).toBe(`upshot-${user.username}.${EXTENSION[kind]}`);
      expect(res.headers['cache-control'], kind).toBe('no-store');
      expect(res.body, kind).toContain(token);
      expect(res.body, kind).toContain(PUBLIC_URL);
    }
    // The caller's own config has its own path too, and is the same file.
    const own = await get('/api/upload/sharex-config', auth);
    expect(own.statusCode).toBe(200);
    expect(savedAs(own)).toBe(`upshot-${user.username}.sxcu`);
    expect(own.headers['cache-control']).toBe('no-store');
    expect(own.body).toBe((await download(auth, user.id, 'sharex')).body);
  });

  it('name the file safely for a username with spaces, slashes and dots', async () => {
    const { row, password } = await createUser(ctx, { username: 'Jane Doe/../photos\\x' });
    const auth = { authorization: `Bearer ${await login(ctx, row.email, password, '10.55.0.1')}` };
    for (const kind of ['sharex', 'bash', 'powershell'] as const) {
      const res = await download(auth, row.id, kind);
      expect(res.statusCode).toBe(200);
      const name = savedAs(res);
      expect(name).toMatch(new RegExp(`^upshot-[A-Za-z0-9._-]+\\.${EXTENSION[kind]}$`));
      expect(name).not.toMatch(/[\s/\\]|\.\.[/\\]/);
      for (const part of ['Jane', 'Doe', 'photos']) expect(name).toContain(part);
    }
  });

  it('the ShareX config is exactly the custom uploader ShareX reads', async () => {
    const { user, auth } = await signIn(ctx);
    const token = await apiTokenOf(auth, user.id);
    const res = await get('/api/upload/sharex-config', auth);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const config = JSON.parse(res.body);
    expect(config).toEqual({
      Version: expect.any(String),
      Name: expect.any(String),
      DestinationType: 'ImageUploader, TextUploader, FileUploader',
      RequestMethod: 'POST',
      RequestURL: `${PUBLIC_URL}/api/upload`,
      Headers: { 'X-API-Token': token },
      Body: 'MultipartFormData',
      FileFormName: 'file',
      URL: '{json:url}',
      ThumbnailURL: '{json:upload.thumbnailUrl}',
      DeletionURL: '{json:deletionUrl}',
      ErrorMessage: '{json:message}',
    });
  });

  it('follow a replaced token', async () => {
    const { user, auth } = await signIn(ctx);
    const old = await apiTokenOf(auth, user.id);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${user.id}/api-token`,
      headers: auth,
    });
    const fresh = res.json().apiToken;
    for (const kind of ['sharex', 'bash', 'powershell'] as const) {
      const body = (await download(auth, user.id, kind)).body;
      expect(body, kind).toContain(fresh);
      expect(body, kind).not.toContain(old);
    }
  });
});

describe('who may download whose', () => {
  it("refuses a plain user another's (403), leaking no token", async () => {
    const alice = await signIn(ctx);
    const bob = await signIn(ctx);
    const bobToken = await apiTokenOf(bob.auth, bob.user.id);
    for (const kind of ['sharex', 'bash', 'powershell'] as const) {
      const res = await download(alice.auth, bob.user.id, kind);
      expect(res.statusCode, kind).toBe(403);
      expect(res.json().error).toBe('forbidden');
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.body).not.toContain(bobToken);
    }
  });

  it("gives an admin another user's files, with that user's token and name", async () => {
    const admin = await signIn(ctx, 'admin');
    const plain = await signIn(ctx);
    const token = await apiTokenOf(plain.auth, plain.user.id);
    const adminToken = await apiTokenOf(admin.auth, admin.user.id);
    for (const kind of ['sharex', 'bash', 'powershell'] as const) {
      const res = await download(admin.auth, plain.user.id, kind);
      expect(res.statusCode, kind).toBe(200);
      expect(savedAs(res)).toBe(`upshot-${plain.user.username}.${EXTENSION[kind]}`);
      expect(res.body).toContain(token);
      expect(res.body).not.toContain(adminToken);
    }
    // The admin's own config is still the admin's.
    const own = await get('/api/upload/sharex-config', admin.auth);
    expect(JSON.parse(own.body).Headers['X-API-Token']).toBe(adminToken);
  });

  it('answers 401 without credentials', async () => {
    const { user } = await signIn(ctx);
    expect((await get('/api/upload/sharex-config')).statusCode).toBe(401);
    for (const kind of ['sharex', 'bash', 'powershell'] as const) {
      expect((await download({}, user.id, kind)).statusCode, kind).toBe(401);
    }
  });
});

describe('uploading as ShareX does, from the config', () => {
  it('answers links that work: the file, its thumbnail, its deletion page', async () => {
    const { user, auth } = await signIn(ctx);
    const config = await sharexConfigOf(auth, user.id);
    const data = await png('#3366cc');
    const res = await postAsShareX(config, {
      filename: 'Screenshot 2024.png',
      contentType: 'image/png',
      data,
    });
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json();
    expect(answer.upload.isPublic).toBe(true);

    const url = resolveJsonSyntax(config.URL, answer);
    const file = await get(onPublicUrl(url));
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(data)).toBe(true);

    // The thumbnail is made in the background: wait for it, then it is an image.
    const thumbnailUrl = resolveJsonSyntax(config.ThumbnailURL, answer);
    await thumbnailReady(answer.upload.id);
    const thumb = await get(onPublicUrl(thumbnailUrl));
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toMatch(/^image\//);
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(500);
    expect(meta.width! / meta.height!).toBeCloseTo(500 / 300, 1);

    const deletionUrl = resolveJsonSyntax(config.DeletionURL, answer);
    const page = await get(onPublicUrl(deletionUrl));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Screenshot 2024.png');
    expect(page.body).toMatch(/<form\b[^>]*method="post"/i);
    // Opening it deleted nothing.
    expect((await get(onPublicUrl(url))).statusCode).toBe(200);
  });

  it('makes a private upload for a user whose default is private (ShareX sends no isPublic)', async () => {
    const { user, auth } = await signIn(ctx);
    const prefs = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/preferences',
      headers: auth,
      payload: { defaultUploadPrivacy: false },
    });
    expect(prefs.statusCode).toBe(200);
    const config = await sharexConfigOf(auth, user.id);
    const data = await png('#cc6633');
    const res = await postAsShareX(config, { filename: 'p.png', contentType: 'image/png', data });
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json();
    expect(answer.upload.isPublic).toBe(false);
    const url = resolveJsonSyntax(config.URL, answer);
    expect((await get(onPublicUrl(url))).statusCode).toBe(404); // to strangers
    expect((await get(onPublicUrl(url), auth)).statusCode).toBe(200); // to its owner
    // Its thumbnail link is signed, and works once the thumbnail is made.
    const thumbnailUrl = resolveJsonSyntax(config.ThumbnailURL, answer);
    expect(new URL(thumbnailUrl).searchParams.get('signature')).toBeTruthy();
    await thumbnailReady(answer.upload.id);
    const thumb = await get(onPublicUrl(thumbnailUrl));
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toMatch(/^image\//);
    // And its deletion link opens the confirmation page.
    const page = await get(onPublicUrl(resolveJsonSyntax(config.DeletionURL, answer)));
    expect(page.statusCode).toBe(200);
  });

  it('takes the link settings from the headers a user adds to the config (as the README shows)', async () => {
    const { user, auth } = await signIn(ctx);
    const config = await sharexConfigOf(auth, user.id);
    const headers = {
      ...config.Headers,
      'X-Upshot-Public': 'false',
      'X-Upshot-Expires': '7d',
      'X-Upshot-Max-Views': '10',
      'X-Upshot-Password': 'correct horse',
    };
    const data = await png('#336633');
    const res = await postAsShareX(
      { ...config, Headers: headers },
      { filename: 'h.png', contentType: 'image/png', data },
    );
    expect(res.statusCode, res.body).toBe(201);
    const { upload } = res.json();
    expect(upload).toMatchObject({
      isPublic: false,
      maxViews: 10,
      viewsLeft: 10,
      hasPassword: true,
    });
    expect(Math.abs(Date.parse(upload.expiresAt) - (Date.now() + 7 * 86_400_000))).toBeLessThan(
      120_000,
    );
    expect(res.body).not.toContain('correct horse');

    // A header's value is checked as its field's would be, in a message naming the header.
    const bad = await postAsShareX(
      { ...config, Headers: { ...config.Headers, 'X-Upshot-Max-Views': 'lots' } },
      { filename: 'h.png', contentType: 'image/png', data },
    );
    expect(bad.statusCode).toBe(400);
    expect(resolveJsonSyntax(config.ErrorMessage, bad.json())).toMatch(/^x-upshot-max-views: /);
  });

  it('deletes the upload on a bare POST to its deletion link (curl -X POST "$deletionUrl")', async () => {
    const { user, auth } = await signIn(ctx);
    const config = await sharexConfigOf(auth, user.id);
    const res = await postAsShareX(config, {
      filename: 'gone.txt',
      contentType: 'text/plain',
      data: Buffer.from('soon gone'),
    });
    expect(res.statusCode, res.body).toBe(201);
    const url = resolveJsonSyntax(config.URL, res.json());
    // What curl sends for -X POST with no data: no body, no content type.
    const deleted = await ctx.app.inject({
      method: 'POST',
      url: onPublicUrl(resolveJsonSyntax(config.DeletionURL, res.json())),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await get(onPublicUrl(url))).statusCode).toBe(404);
  });

  it('answers an error as JSON whose message ShareX can show (a token no longer valid)', async () => {
    const { user, auth } = await signIn(ctx);
    const config = await sharexConfigOf(auth, user.id);
    // The token is replaced after the config was downloaded.
    const regen = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${user.id}/api-token`,
      headers: auth,
    });
    expect(regen.statusCode).toBe(200);
    const res = await postAsShareX(config, {
      filename: 'x.txt',
      contentType: 'text/plain',
      data: Buffer.from('hello'),
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const message = resolveJsonSyntax(config.ErrorMessage, res.json());
    expect(message.length).toBeGreaterThan(0);
    expect(message).toBe(res.json().message);

    // A file field under another name than the config's is an error ShareX can show too.
    const fresh = await sharexConfigOf(auth, user.id);
    const wrongField = await postAsShareX(
      { ...fresh, FileFormName: 'upload' },
      { filename: 'x.txt', contentType: 'text/plain', data: Buffer.from('hello') },
    );
    expect(wrongField.statusCode).toBe(400);
    expect(resolveJsonSyntax(fresh.ErrorMessage, wrongField.json()).length).toBeGreaterThan(0);
  });
});
