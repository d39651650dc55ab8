import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { MAX_SIMPLE_UPLOAD_BYTES, MIN_CHARGE_BYTES } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, filesUnder, type TestContext } from '../../../test/context.ts';
import { signIn } from '../../../test/users.ts';
import { diskUsedOf, uploadFile, uploadIdsOf } from '../../../test/uploads.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
});
afterAll(() => ctx.close());

const filesDir = () => path.join(ctx.dataDir, 'files');
const setQuota = (userId: string, bytes: number) =>
  ctx.handle.db.updateTable('users').set({ disk_quota: bytes }).where('id', '=', userId).execute();
const diskUsed = (userId: string) => diskUsedOf(ctx, userId);

describe('POST /api/upload', () => {
  it('stores the file, answers 201 with its link and charges the quota', async () => {
    const { user, auth } = await signIn(ctx);
    const data = crypto.randomBytes(200_000);
    const res = await uploadFile(ctx, auth, {
      filename: 'holiday photo.png',
      contentType: 'image/png',
      data,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('File uploaded successfully');
    expect(body.upload).toMatchObject({
      originalFilename: 'holiday photo.png',
      mimeType: 'image/png',
      size: data.length,
      views: 0,
      vanityUrl: null,
      isPublic: true,
      tags: [],
    });
    expect(body.upload.shortCode).toMatch(/^[23456789abcdefghjkmnpqrstuvwxyz]{6}$/);
    expect(body.url).toBe(`https://up.example.com/${body.upload.shortCode}`);
    expect(body.upload.url).toBe(body.url);
    expect(body.upload.thumbnailUrl).toBe(`https://up.example.com/thumb/${body.upload.shortCode}`);
    expect(await diskUsed(user.id)).toBe(data.length);

    const row = await ctx.handle.db
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', body.upload.id)
      .executeTakeFirstOrThrow();
    expect(row.sha256).toBe(crypto.createHash('sha256').update(data).digest('hex'));
    // The key is the server's own, never the filename.
    expect(row.storage_key).toMatch(/^u\/[a-f0-9]{2}\/[a-f0-9]{2}\/[a-f0-9]{32}$/);
  });

  it('hashes a file past the inline limit after answering', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(20 * 1024 * 1024);
    const res = await uploadFile(ctx, auth, { filename: 'big.bin', data });
    expect(res.statusCode).toBe(201);
    const sha256 = () =>
      ctx.handle.db
        .selectFrom('uploads')
        .select('sha256')
        .where('id', '=', res.json().upload.id)
        .executeTakeFirstOrThrow()
        .then((r) => r.sha256);
    await vi.waitFor(
      async () =>
        expect(await sha256()).toBe(crypto.createHash('sha256').update(data).digest('hex')),
      { timeout: 10_000 },
    );
  });

  it('accepts the personal API token, as desktop clients send it', async () => {
    const { user } = await signIn(ctx);
    const apiToken = ctx.modules.users.service.revealApiToken(user);
    const res = await uploadFile(
      ctx,
      { 'x-api-token': apiToken },
      { filename: 'shot.txt', contentType: 'text/plain', data: Buffer.from('hello') },
    );
    expect(res.statusCode).toBe(201);
  });

  it('guesses the type from the extension when it is blank or generic, and honours isPublic', async () => {
    const { auth } = await signIn(ctx);
    const res = await uploadFile(
      ctx,
      auth,
      { filename: 'notes.pdf', contentType: 'application/octet-stream', data: Buffer.from('%PDF') },
      { isPublic: 'false' },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().upload).toMatchObject({ mimeType: 'application/pdf', isPublic: false });
    // A PDF gets no thumbnail, so the listing offers none.
    expect(res.json().upload.thumbnailUrl).toBeNull();
    const png = await uploadFile(
      ctx,
      auth,
      { filename: 'p.png', contentType: 'image/png', data: Buffer.from('png?') },
      { isPublic: 'false' },
    );
    expect(png.json().upload.thumbnailUrl).toMatch(/\?expires=\d+&signature=[a-f0-9]{32}$/);
  });

  it('keeps only the last segment of a path-like filename', async () => {
    const { auth } = await signIn(ctx);
    const res = await uploadFile(ctx, auth, {
      filename: '..\\..\\windows\\evil.txt',
      data: Buffer.from('x'),
    });
    expect(res.json().upload.originalFilename).toBe('evil.txt');
  });

  it('refuses anonymous uploads and requests without a file', async () => {
    const anon = await uploadFile(ctx, {}, { filename: 'a.txt', data: Buffer.from('a') });
    expect(anon.statusCode).toBe(401);
    const { auth } = await signIn(ctx);
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: auth,
      payload: { file: 'nope' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toMatch(/multipart\/form-data/);
    const wrongField = await uploadFile(ctx, auth, {
      filename: 'a.txt',
      data: Buffer.from('a'),
    }).then(() =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/upload',
        headers: { ...auth, 'content-type': 'multipart/form-data; boundary=x' },
        payload:
          '--x\r\ncontent-disposition: form-data; name="document"; filename="a.txt"\r\n\r\nabc\r\n--x--\r\n',
      }),
    );
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().message).toMatch(/"document"/);
  });

  it('accepts exactly 100 MiB and refuses one byte more with 413 naming the chunked upload', async () => {
    const { user, auth } = await signIn(ctx);
    const big = Buffer.alloc(MAX_SIMPLE_UPLOAD_BYTES, 7);
    const ok = await uploadFile(ctx, auth, { filename: 'exact.bin', data: big });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().upload.size).toBe(MAX_SIMPLE_UPLOAD_BYTES);

    const before = filesUnder(ctx.dataDir).length;
    const tooBig = await uploadFile(ctx, auth, {
      filename: 'over.bin',
      data: Buffer.alloc(MAX_SIMPLE_UPLOAD_BYTES + 1, 7),
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error).toBe('payload_too_large');
    expect(tooBig.json().message).toMatch(/chunked upload/);
    expect(filesUnder(ctx.dataDir).length).toBe(before);
    expect(await diskUsed(user.id)).toBe(MAX_SIMPLE_UPLOAD_BYTES);
  });

  it('refuses an upload past the quota with 413 saying how much room is left, keeping nothing', async () => {
    const { user, auth } = await signIn(ctx);
    await setQuota(user.id, 15_000);
    const first = await uploadFile(ctx, auth, { filename: 'a.bin', data: Buffer.alloc(10_000) });
    expect(first.statusCode).toBe(201);
    const before = filesUnder(filesDir()).length;
    const second = await uploadFile(ctx, auth, { filename: 'b.bin', data: Buffer.alloc(10_000) });
    expect(second.statusCode).toBe(413);
    expect(second.json().message).toBe('Storage quota exceeded: 4.88 KB left');
    expect(filesUnder(filesDir()).length).toBe(before);
    expect(await diskUsed(user.id)).toBe(10_000);
  });

  it('lets only one of two concurrent uploads through when only one fits', async () => {
    const { user, auth } = await signIn(ctx);
    await setQuota(user.id, 150_000);
    const results = await Promise.all(
      [1, 2, 3].map((i) =>
        uploadFile(ctx, auth, { filename: `race${i}.bin`, data: crypto.randomBytes(100_000) }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 413, 413]);
    expect(await diskUsed(user.id)).toBe(100_000);
    const rows = await ctx.handle.db
      .selectFrom('uploads')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe('PATCH /api/uploads/:id (vanity URL)', () => {
  async function anUpload(auth: Record<string, string>) {
    const res = await uploadFile(ctx, auth, { filename: 'v.txt', data: Buffer.from('v') });
    return res.json().upload as { id: string; shortCode: string };
  }
  const patch = (auth: Record<string, string>, id: string, vanityUrl: string | null) =>
    ctx.app.inject({
      method: 'PATCH',
      url: `/api/uploads/${id}`,
      headers: auth,
      payload: { vanityUrl },
    });

  it('sets a vanity URL that then serves the file, and null removes it', async () => {
    const { auth } = await signIn(ctx);
    const up = await anUpload(auth);
    const set = await patch(auth, up.id, 'My-Report_2026');
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({
      vanityUrl: 'My-Report_2026',
      url: 'https://up.example.com/My-Report_2026',
    });
    expect((await ctx.app.inject({ method: 'GET', url: '/my-report_2026' })).body).toBe('v');

    const cleared = await patch(auth, up.id, null);
    expect(cleared.json()).toMatchObject({ vanityUrl: null });
    expect((await ctx.app.inject({ method: 'GET', url: '/My-Report_2026' })).statusCode).toBe(404);
    expect((await patch(auth, up.id, '')).json().vanityUrl).toBeNull();
  });

  it.each([
    ['ab', 400, 'Custom URL must be 3-50 characters'],
    ['has space', 400, 'Custom URL may contain only letters, numbers, hyphens and underscores'],
    ['dots.txt', 400, 'Custom URL may contain only letters, numbers, hyphens and underscores'],
    ['API', 409, '"API" is reserved'],
    ['dashboard', 409, '"dashboard" is reserved'],
    ['thumb', 409, '"thumb" is reserved'],
  ])('refuses %s with %i', async (value, status, message) => {
    const { auth } = await signIn(ctx);
    const up = await anUpload(auth);
    const res = await patch(auth, up.id, value);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
  });

  it('refuses a value longer than 50 characters', async () => {
    const { auth } = await signIn(ctx);
    const up = await anUpload(auth);
    const res = await patch(auth, up.id, 'a'.repeat(51));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/vanityUrl/);
  });

  it('refuses a vanity URL taken by another vanity URL or short code, case-insensitively', async () => {
    const a = await signIn(ctx);
    const b = await signIn(ctx);
    const mine = await anUpload(a.auth);
    const theirs = await anUpload(b.auth);
    expect((await patch(b.auth, theirs.id, 'shared-name')).statusCode).toBe(200);
    const taken = await patch(a.auth, mine.id, 'SHARED-name');
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('"SHARED-name" is already taken');
    // A short code's shape is refused before anything is looked up (dangling-links.test.ts).
    const code = await patch(a.auth, mine.id, theirs.shortCode.toUpperCase());
    expect(code.statusCode).toBe(400);
    // Setting one's own current vanity URL again is fine.
    expect((await patch(b.auth, theirs.id, 'shared-name')).statusCode).toBe(200);
  });

  it("answers 404 for someone else's upload", async () => {
    const a = await signIn(ctx);
    const b = await signIn(ctx);
    const up = await anUpload(a.auth);
    expect((await patch(b.auth, up.id, 'not-mine')).statusCode).toBe(404);
  });
});

describe('deleting', () => {
  it('deletes an own upload with its bytes and gives the quota back', async () => {
    const { user, auth } = await signIn(ctx);
    const up = (await uploadFile(ctx, auth, { filename: 'd.bin', data: Buffer.alloc(1234) })).json()
      .upload;
    const row = await ctx.handle.db
      .selectFrom('uploads')
      .select('storage_key')
      .where('id', '=', up.id)
      .executeTakeFirstOrThrow();
    const file = path.join(filesDir(), row.storage_key);
    expect(filesUnder(filesDir())).toContain(file);

    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${up.id}`,
      headers: auth,
    });
    expect(res.statusCode).toBe(204);
    expect(filesUnder(filesDir())).not.toContain(file);
    expect(await diskUsed(user.id)).toBe(0);
    expect((await ctx.app.inject({ method: 'GET', url: `/${up.shortCode}` })).statusCode).toBe(404);
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${up.id}`,
      headers: auth,
    });
    expect(again.statusCode).toBe(404);
  });

  it("refuses someone else's upload, but an admin may delete it", async () => {
    const owner = await signIn(ctx);
    const other = await signIn(ctx);
    const admin = await signIn(ctx, 'admin');
    const up = (
      await uploadFile(ctx, owner.auth, { filename: 'x.bin', data: Buffer.alloc(10) })
    ).json().upload;
    const refused = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${up.id}`,
      headers: other.auth,
    });
    expect(refused.statusCode).toBe(404);
    const byAdmin = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${up.id}`,
      headers: admin.auth,
    });
    expect(byAdmin.statusCode).toBe(204);
    expect(await diskUsed(owner.user.id)).toBe(0);
  });

  it('batch-deletes only own uploads and counts them', async () => {
    const owner = await signIn(ctx);
    const other = await signIn(ctx);
    const mine = [];
    for (let i = 0; i < 3; i++) {
      mine.push(
        (
          await uploadFile(ctx, owner.auth, { filename: `m${i}.bin`, data: Buffer.alloc(100) })
        ).json().upload.id,
      );
    }
    const theirs = (
      await uploadFile(ctx, other.auth, { filename: 't.bin', data: Buffer.alloc(100) })
    ).json().upload.id;
    const before = filesUnder(filesDir()).length;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads/batch/delete',
      headers: owner.auth,
      payload: { uploadIds: [...mine, theirs, 'no-such-id', mine[0]] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deletedCount: 3 });
    expect(filesUnder(filesDir()).length).toBe(before - 3);
    expect(await diskUsed(owner.user.id)).toBe(0);
    // A file of 100 bytes is charged one 4 KiB block.
    expect(await diskUsed(other.user.id)).toBe(MIN_CHARGE_BYTES);

    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads/batch/delete',
      headers: owner.auth,
      payload: { uploadIds: [] },
    });
    expect(empty.statusCode).toBe(400);
  });

  it('the sweep reclaims bytes no record points at, and leaves the rest', async () => {
    const { auth } = await signIn(ctx);
    await uploadFile(ctx, auth, { filename: 'keep.bin', data: Buffer.alloc(10) });
    const storage = (await import('../../storage/local.ts')).createLocalStorage(ctx.dataDir);
    const { Readable } = await import('node:stream');
    await storage.put(
      'u/ab/cd/abcdef0123456789abcdef0123456789',
      Readable.from([Buffer.from('orphan')]),
    );
    const before = filesUnder(filesDir());
    // Young orphans are left alone (they may belong to a request in flight).
    expect((await ctx.modules.uploads.sweepOrphans()).objects).toEqual([]);
    const swept = await ctx.modules.uploads.sweepOrphans(-1000);
    expect(swept.objects).toEqual(['u/ab/cd/abcdef0123456789abcdef0123456789']);
    expect(filesUnder(filesDir())).toHaveLength(before.length - 1);
  });
});

describe('an upload cut off mid-stream', () => {
  it('leaves no file, no temporary file and no record behind', async () => {
    const { user, auth } = await signIn(ctx);
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const before = filesUnder(ctx.dataDir).length;

    const boundary = 'cutoff';
    const head =
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="half.bin"\r\n` +
      'content-type: application/octet-stream\r\n\r\n';
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /api/upload HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: ${auth.authorization}\r\n` +
            `content-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: ${10 * 1024 * 1024}\r\n\r\n` +
            head,
        );
        socket.write(crypto.randomBytes(2 * 1024 * 1024), () => {
          // Once the bytes are on their way to disk, the client goes away with 8 MiB unsent.
          void vi
            .waitFor(() =>
              expect(
                filesUnder(path.join(ctx.dataDir, 'tmp')).some((f) => f.endsWith('.part')),
              ).toBe(true),
            )
            .then(() => {
              socket.destroy();
              resolve();
            });
        });
      });
      socket.on('error', () => {});
    });

    await vi.waitFor(() => expect(filesUnder(ctx.dataDir).length).toBe(before));
    expect(await uploadIdsOf(ctx, user.id)).toEqual([]);
    expect(await diskUsed(user.id)).toBe(0);
  });
});

describe('an upload whose row the database cannot write', () => {
  it('answers 500 and keeps its bytes for the orphan sweep while the row may exist', async () => {
    // The database goes away once the bytes are stored: the insert fails, and so does asking
    // whether it committed (as when a connection is lost before the commit's answer). The
    // bytes stay: a row that did commit must not lose them; the sweep takes them otherwise.
    let stored = async () => {};
    const other = await createTestContext(
      {},
      {},
      {
        wrapStorage: (storage) => ({
          ...storage,
          put: async (key, body, options) => {
            const result = await storage.put(key, body, options);
            await stored();
            return result;
          },
        }),
      },
    );
    try {
      const { auth } = await signIn(other);
      const files = path.join(other.dataDir, 'files');
      stored = () => other.handle.db.destroy();
      const res = await uploadFile(other, auth, { filename: 'a.bin', data: Buffer.alloc(5000, 1) });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: 'internal_error', message: 'Something went wrong' });
      expect(filesUnder(files).map((f) => fs.statSync(f).size)).toEqual([5000]);
    } finally {
      await other.app.close();
      await other.database.drop();
    }
  });

  it('answers 500 and removes its bytes when the insert was refused and no row exists', async () => {
    // The insert fails inside its transaction (its short code's table is gone for a moment),
    // and the database, still answering, says there is no row: nobody will ever want the bytes.
    let stored = async () => {};
    const other = await createTestContext(
      {},
      {},
      {
        wrapStorage: (storage) => ({
          ...storage,
          put: async (key, body, options) => {
            const result = await storage.put(key, body, options);
            await stored();
            return result;
          },
        }),
      },
    );
    try {
      const { user, auth } = await signIn(other);
      const files = path.join(other.dataDir, 'files');
      stored = () => other.handle.db.schema.alterTable('slugs').renameTo('slugs_away').execute();
      const res = await uploadFile(other, auth, { filename: 'a.bin', data: Buffer.alloc(5000, 1) });
      await other.handle.db.schema.alterTable('slugs_away').renameTo('slugs').execute();
      expect(res.statusCode).toBe(500);
      expect(filesUnder(files)).toEqual([]);
      expect(await uploadIdsOf(other, user.id)).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
