/**
 * Deletion links (ShareX's history, the scripts): every upload answer carries one; opening it
 * shows a confirmation page and deletes nothing; only the page's form (a POST with the
 * signature) deletes, once, and a signature opens its own upload's deletion only.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { chargedBytes } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { completeChunked, sendAll, startChunked } from '../../../test/chunked-uploads.ts';
import { createTestContext, filesUnder, type TestContext } from '../../../test/context.ts';
import { flipHexDigit } from '../../../test/links.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

const PUBLIC_URL = 'https://up.example.com';
const CHUNK = 64 * 1024;

let ctx: TestContext;
let owner: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL }, {}, { chunkSize: CHUNK });
  owner = await signIn(ctx);
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;
type Uploaded = {
  url: string;
  deletionUrl: string;
  upload: { id: string; shortCode: string; originalFilename: string; isPublic: boolean };
};

/** A deletion URL as the app injects it: its path and query, with its parts. */
function deletionLink(deletionUrl: string) {
  const url = new URL(deletionUrl);
  expect(url.origin).toBe(PUBLIC_URL);
  const id = /^\/d\/([^/]+)$/.exec(url.pathname)?.[1];
  const signature = url.searchParams.get('signature');
  expect(id).toBeDefined();
  expect(signature).toMatch(/^[0-9a-f]+$/);
  return { path: url.pathname + url.search, id: id!, signature: signature! };
}

async function upload(
  filename: string,
  data: Buffer = crypto.randomBytes(2000),
  fields: Record<string, string> = {},
  auth: Auth = owner.auth,
  contentType = 'application/octet-stream',
) {
  const res = await uploadFile(ctx, auth, { filename, contentType, data }, fields);
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json<Uploaded>();
  return { ...body, data, link: deletionLink(body.deletionUrl) };
}

const get = (url: string, headers: Auth = {}) => ctx.app.inject({ method: 'GET', url, headers });
/** Posts the form as a browser does: to the page's own URL, url-encoded, no credentials. */
const postForm = (pagePath: string, body: string) =>
  ctx.app.inject({
    method: 'POST',
    url: pagePath,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: body,
  });
const fileLink = (shortCode: string) => get(`/${shortCode}`);
const rowOf = (id: string) =>
  ctx.handle.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
const diskUsed = async (auth: Auth) =>
  (await get('/api/auth/me', auth)).json<{ diskUsed: number }>().diskUsed;
/** Every file under the data dir holding exactly these bytes (the stored object, if any). */
const filesHolding = (data: Buffer) =>
  filesUnder(ctx.dataDir).filter(
    (f) => fs.statSync(f).size === data.length && fs.readFileSync(f).equals(data),
  );

const HTML_ESCAPES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => HTML_ESCAPES[e]!);
const attr = (tag: string, name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`, 'i').exec(tag)?.[1];

/** The confirmation page's form: its method, action, and hidden signature field. */
function formOf(html: string) {
  const forms = html.match(/<form\b[^>]*>/gi) ?? [];
  expect(forms).toHaveLength(1);
  const inputs = (html.match(/<input\b[^>]*>/gi) ?? []).filter(
    (i) => attr(i, 'name') === 'signature',
  );
  expect(inputs).toHaveLength(1);
  return {
    method: attr(forms[0]!, 'method')?.toLowerCase(),
    action: attr(forms[0]!, 'action'),
    signatureType: attr(inputs[0]!, 'type')?.toLowerCase(),
    signature: unescapeHtml(attr(inputs[0]!, 'value') ?? ''),
  };
}

/** The headers every page of the app carries (and a deletion page must not be cached). */
function expectPageHeaders(res: Awaited<ReturnType<typeof get>>) {
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers['cache-control']).toBe('no-store');
  const csp = String(res.headers['content-security-policy'] ?? '');
  expect(csp).not.toBe('');
  expect(csp).not.toMatch(/sandbox/); // the files' policy would block the form
  const framing = res.headers['x-frame-options'] !== undefined || /frame-ancestors/.test(csp);
  expect(framing).toBe(true);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  // The page's URL holds the signature: it never goes to another site as a referrer.
  expect(res.headers['referrer-policy']).toMatch(/^(same-origin|no-referrer)$/);
}

/** What must hold while an upload still exists: row, link, bytes. */
async function expectIntact(up: Awaited<ReturnType<typeof upload>>) {
  expect(await rowOf(up.upload.id)).toBeDefined();
  if (up.upload.isPublic) expect((await fileLink(up.upload.shortCode)).statusCode).toBe(200);
  expect(filesHolding(up.data)).toHaveLength(1);
}

describe('the deletion link in upload answers', () => {
  it('comes with a simple upload: PUBLIC_URL/d/{id}?signature=...', async () => {
    const up = await upload('a.bin');
    expect(up.link.id).toBe(up.upload.id);
    expect(up.deletionUrl).toBe(`${PUBLIC_URL}/d/${up.upload.id}?signature=${up.link.signature}`);
    // Each upload's is its own.
    const other = await upload('b.bin');
    expect(other.link.signature).not.toBe(up.link.signature);
  });

  it('comes with a chunked upload, and again with a repeated completion (200)', async () => {
    const data = crypto.randomBytes(CHUNK + 100);
    const sessionId = await startChunked(ctx, owner.auth, data, CHUNK, { filename: 'big.bin' });
    await sendAll(ctx, owner.auth, sessionId, data, CHUNK);
    const first = await completeChunked(ctx, owner.auth, sessionId);
    expect(first.statusCode, first.body).toBe(201);
    const again = await completeChunked(ctx, owner.auth, sessionId);
    expect(again.statusCode).toBe(200);
    const a = first.json<Uploaded>();
    const b = again.json<Uploaded>();
    expect(a.upload.id).toBe(b.upload.id);
    expect(b.deletionUrl).toBe(a.deletionUrl);
    const link = deletionLink(a.deletionUrl);
    expect(link.id).toBe(a.upload.id);

    // And it deletes the chunked upload.
    const page = await get(link.path);
    expect(page.statusCode).toBe(200);
    const res = await postForm(link.path, `signature=${formOf(page.body).signature}`);
    expect(res.statusCode).toBe(200);
    expect(await rowOf(a.upload.id)).toBeUndefined();
    expect(filesHolding(data)).toEqual([]);
    // Completing the session again does not answer (nor bring back) the deleted upload.
    const late = await completeChunked(ctx, owner.auth, sessionId);
    expect(late.statusCode).toBe(404);
    expect(await rowOf(a.upload.id)).toBeUndefined();
  });
});

describe('opening a deletion link (GET)', () => {
  it('shows a confirmation page naming the file, escaped, with a form that posts the signature', async () => {
    // The part's header quotes the name, so its quotes go escaped (a quoted-string).
    const sent = '<b>\\"x\\"&.txt';
    const up = await upload(sent, crypto.randomBytes(500), {}, owner.auth, 'text/plain');
    const name = up.upload.originalFilename;
    expect(name).toBe(`<b>"x"&.txt`); // a name that really needs escaping, kept as sent
    const res = await get(up.link.path); // no credentials
    expect(res.statusCode).toBe(200);
    expectPageHeaders(res);
    const escaped = name
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;');
    expect(res.body).toContain(escaped);
    expect(res.body).not.toContain(name);
    expect(res.body).not.toContain('<b>');

    const form = formOf(res.body);
    expect(form.method).toBe('post');
    // No action: the browser posts back to the page's own URL.
    expect(form.action === undefined || form.action === '' || form.action === up.link.path).toBe(
      true,
    );
    expect(form.signatureType).toBe('hidden');
    expect(form.signature).toBe(up.link.signature);
  });

  it('deletes nothing, GET or HEAD, however often', async () => {
    const up = await upload('keep.bin');
    const used = await diskUsed(owner.auth);
    for (let i = 0; i < 3; i++) expect((await get(up.link.path)).statusCode).toBe(200);
    const head = await ctx.app.inject({ method: 'HEAD', url: up.link.path });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
    expect(head.body).toBe('');
    await expectIntact(up);
    const fileHead = await ctx.app.inject({ method: 'HEAD', url: `/${up.upload.shortCode}` });
    expect(fileHead.statusCode).toBe(200);
    expect(await diskUsed(owner.auth)).toBe(used);
  });

  it('answers a 404 page for a forged signature, another upload’s, or none', async () => {
    const a = await upload('a.bin');
    const b = await upload('b.bin');
    for (const url of [
      `/d/${b.upload.id}?signature=${a.link.signature}`,
      `/d/${a.upload.id}?signature=${flipHexDigit(a.link.signature)}`,
      `/d/${a.upload.id}?signature=`,
      `/d/${a.upload.id}`,
      `/d/${crypto.randomUUID()}?signature=${a.link.signature}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).not.toContain('a.bin');
      expect(res.body, url).not.toContain('b.bin');
      expect(res.body, url).not.toMatch(/<form/i);
    }
  });
});

describe('deleting through the link (POST)', () => {
  it('deletes the upload with the form the page sends, without signing in', async () => {
    const { auth } = await signIn(ctx);
    const before = await diskUsed(auth);
    const data = crypto.randomBytes(3000);
    const up = await upload('gone.bin', data, {}, auth);
    // Charged at least one 4 KiB block; the deletion gives back exactly that.
    expect(await diskUsed(auth)).toBe(before + chargedBytes(data.length));
    expect(filesHolding(data)).toHaveLength(1);

    const page = await get(up.link.path);
    const form = formOf(page.body);
    const res = await postForm(
      up.link.path,
      new URLSearchParams({ signature: form.signature }).toString(),
    );
    expect(res.statusCode).toBe(200);
    expectPageHeaders(res);
    expect(res.body).toMatch(/deleted/i);
    expect(res.body).toContain('gone.bin');

    expect((await fileLink(up.upload.shortCode)).statusCode).toBe(404);
    expect(await rowOf(up.upload.id)).toBeUndefined();
    expect(await diskUsed(auth)).toBe(before);
    expect(filesHolding(data)).toEqual([]);

    // Used once: the same form again, and the page, answer the 404 page.
    const reused = await postForm(up.link.path, `signature=${form.signature}`);
    expect(reused.statusCode).toBe(404);
    expect(reused.headers['content-type']).toMatch(/^text\/html/);
    expect(reused.body).not.toContain('gone.bin');
    const reopened = await get(up.link.path);
    expect(reopened.statusCode).toBe(404);
    expect(reopened.headers['content-type']).toMatch(/^text\/html/);
    expect(reopened.body).not.toMatch(/<form/i);
    expect(await diskUsed(auth)).toBe(before);
  });

  it('also takes the signature as JSON', async () => {
    const up = await upload('json.bin');
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/d/${up.upload.id}`,
      payload: { signature: up.link.signature },
    });
    expect(res.statusCode).toBe(200);
    expect(await rowOf(up.upload.id)).toBeUndefined();
    expect(filesHolding(up.data)).toEqual([]);
  });

  it('takes a form whose content type names its charset', async () => {
    const up = await upload('charset.bin');
    const res = await ctx.app.inject({
      method: 'POST',
      url: up.link.path,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
      payload: `signature=${up.link.signature}`,
    });
    expect(res.statusCode).toBe(200);
    expect(await rowOf(up.upload.id)).toBeUndefined();
  });

  it('is the only route that takes a form: a JSON endpoint answers 415 to one', async () => {
    const { auth } = await signIn(ctx);
    const up = await upload('form.bin', crypto.randomBytes(300), {}, auth);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const refused = [
      ctx.app.inject({
        method: 'POST',
        url: '/api/uploads/batch/delete',
        headers: { ...auth, ...form },
        payload: `uploadIds=${up.upload.id}`,
      }),
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: form,
        payload: 'email=a%40example.com&password=whatever1',
      }),
    ];
    for (const res of await Promise.all(refused)) expect(res.statusCode, res.body).toBe(415);
    await expectIntact(up);
  });

  it('refuses a forged signature (404) and deletes nothing', async () => {
    const up = await upload('forged.bin');
    const sig = up.link.signature;
    const forgeries = [
      flipHexDigit(sig),
      sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0'),
      '',
      sig.slice(0, -1),
      `${sig}0`,
      sig.slice(0, 16),
      sig.toUpperCase(),
    ].filter((f) => f !== sig);
    expect(forgeries.length).toBeGreaterThanOrEqual(6);
    for (const forged of forgeries) {
      const res = await postForm(`/d/${up.upload.id}`, `signature=${encodeURIComponent(forged)}`);
      expect(res.statusCode, forged).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    await expectIntact(up);
  });

  it("refuses upload A's signature on upload B (404): B remains, and so does A", async () => {
    const a = await upload('a.bin');
    const b = await upload('b.bin');
    const res = await postForm(`/d/${b.upload.id}`, `signature=${a.link.signature}`);
    expect(res.statusCode).toBe(404);
    await expectIntact(a);
    await expectIntact(b);
  });

  it('refuses a file access signature as a deletion signature', async () => {
    const up = await upload('private.bin', crypto.randomBytes(700), { isPublic: 'false' });
    const access = await get(`/api/uploads/${up.upload.id}/access-url`, owner.auth);
    expect(access.statusCode).toBe(200);
    const signed = new URL(access.json<{ url: string }>().url);
    expect((await get(signed.pathname + signed.search)).statusCode).toBe(200);
    const fileSignature = signed.searchParams.get('signature')!;
    expect(fileSignature).not.toBe(up.link.signature);
    const res = await postForm(`/d/${up.upload.id}`, `signature=${fileSignature}`);
    expect(res.statusCode).toBe(404);
    expect((await get(`/d/${up.upload.id}?${signed.searchParams}`)).statusCode).toBe(404);
    await expectIntact(up);
    // Nor does a deletion signature open the file.
    expect((await get(`/${up.upload.shortCode}?signature=${up.link.signature}`)).statusCode).toBe(
      404,
    );
  });

  it('answers 400 without a signature, and deletes nothing', async () => {
    const up = await upload('unsigned.bin');
    const requests = [
      postForm(`/d/${up.upload.id}`, ''),
      postForm(`/d/${up.upload.id}`, 'other=1'),
      ctx.app.inject({ method: 'POST', url: `/d/${up.upload.id}`, payload: {} }),
      ctx.app.inject({ method: 'POST', url: `/d/${up.upload.id}` }),
    ];
    for (const res of await Promise.all(requests)) {
      expect(res.statusCode, res.body).toBe(400);
    }
    await expectIntact(up);
  });

  it('deletes on a bare POST to the link itself (its signature in the query), as a script does', async () => {
    const up = await upload('scripted.bin');
    const other = await upload('other.bin');
    const query = new URL(up.deletionUrl).search;
    // Another upload's signature in the query opens nothing.
    const forged = await ctx.app.inject({ method: 'POST', url: `/d/${other.upload.id}${query}` });
    expect(forged.statusCode).toBe(404);
    await expectIntact(other);
    const res = await ctx.app.inject({ method: 'POST', url: `/d/${up.upload.id}${query}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('File deleted');
    const again = await ctx.app.inject({ method: 'POST', url: `/d/${up.upload.id}${query}` });
    expect(again.statusCode).toBe(404);
  });

  it('deletes a private upload, and its thumbnail', async () => {
    const { auth } = await signIn(ctx);
    const data = await sharp({
      create: { width: 640, height: 480, channels: 3, background: '#884422' },
    })
      .png()
      .toBuffer();
    const up = await upload('secret.png', data, { isPublic: 'false' }, auth, 'image/png');
    expect(up.upload.isPublic).toBe(false);
    expect((await fileLink(up.upload.shortCode)).statusCode).toBe(404); // private to strangers
    // The thumbnail is made in the background: wait until it exists, to see it go too.
    await vi.waitFor(
      async () => expect((await rowOf(up.upload.id))?.thumbnail_status).toBe('ready'),
      { timeout: 15_000, interval: 20 },
    );
    const row = (await rowOf(up.upload.id))!;
    const stored = [row.storage_key, row.thumbnail_key!].map((key) =>
      path.join(ctx.dataDir, 'files', key),
    );
    for (const file of stored) expect(fs.existsSync(file), file).toBe(true);

    const page = await get(up.link.path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('secret.png');
    const res = await postForm(up.link.path, `signature=${formOf(page.body).signature}`);
    expect(res.statusCode).toBe(200);
    expect(await rowOf(up.upload.id)).toBeUndefined();
    for (const file of stored) expect(fs.existsSync(file), file).toBe(false);
    expect(await diskUsed(auth)).toBe(0);
    const owned = await get(`/api/uploads/${up.upload.id}`, auth);
    expect(owned.statusCode).toBe(404);
  });
});
