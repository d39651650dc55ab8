import crypto from 'node:crypto';
import path from 'node:path';
import { CHUNK_SIZE } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.ts';
import {
  TEST_SECRET,
  createTestContext,
  filesUnder,
  type TestContext,
} from '../../../test/context.ts';
import { signIn } from '../../../test/users.ts';
import { diskUsedOf, multipart, uploadIdsOf } from '../../../test/uploads.ts';
import { SESSION_TTL_MS } from './service.ts';

// The protocol logic with 64 KiB chunks (fast), and one test at the real 50 MiB size below.
const SMALL = 64 * 1024;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, {}, { chunkSize: SMALL });
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;

function init(c: TestContext, auth: Auth, payload: Record<string, unknown>) {
  return c.app.inject({ method: 'POST', url: '/api/chunked-upload/init', headers: auth, payload });
}
function sendChunk(c: TestContext, auth: Auth, uploadId: string, index: number, data: Buffer) {
  const body = multipart(
    { uploadId, chunkIndex: String(index) },
    { field: 'chunk', filename: 'blob', data },
  );
  return c.app.inject({
    method: 'POST',
    url: '/api/chunked-upload/chunk',
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  });
}
function complete(c: TestContext, auth: Auth, uploadId: string) {
  return c.app.inject({
    method: 'POST',
    url: '/api/chunked-upload/complete',
    headers: auth,
    payload: { uploadId },
  });
}
const slice = (data: Buffer, i: number, size = SMALL) => data.subarray(i * size, (i + 1) * size);

async function start(auth: Auth, data: Buffer, filename = 'movie.mp4') {
  const res = await init(ctx, auth, {
    filename,
    mimeType: '',
    totalSize: data.length,
    totalChunks: Math.ceil(data.length / SMALL),
  });
  expect(res.statusCode).toBe(201);
  return res.json().uploadId as string;
}

describe('chunked upload', () => {
  it('assembles chunks sent in order into one upload with the right bytes', async () => {
    const { user, auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2 + 1000);
    const uploadId = await start(auth, data);
    for (let i = 0; i < 3; i++)
      expect((await sendChunk(ctx, auth, uploadId, i, slice(data, i))).statusCode).toBe(204);
    const done = await complete(ctx, auth, uploadId);
    expect(done.statusCode).toBe(201);
    const { upload, url } = done.json();
    expect(upload).toMatchObject({
      originalFilename: 'movie.mp4',
      mimeType: 'video/mp4',
      size: data.length,
    });
    expect(url).toBe(upload.url);

    const served = await ctx.app.inject({ method: 'GET', url: `/${upload.shortCode}` });
    expect(served.rawPayload.equals(data)).toBe(true);
    // The digest is computed after the response, off the request path.
    await vi.waitFor(async () => {
      const row = await ctx.handle.db
        .selectFrom('uploads')
        .select('sha256')
        .where('id', '=', upload.id)
        .executeTakeFirstOrThrow();
      expect(row.sha256).toBe(crypto.createHash('sha256').update(data).digest('hex'));
    });
    expect(await diskUsedOf(ctx, user.id)).toBe(data.length);
    // The session remembers the upload it made: every chunk is in, and completing again
    // answers the same upload.
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/chunked-upload/${uploadId}`,
      headers: auth,
    });
    expect(status.json().receivedChunks).toEqual([0, 1, 2]);
    const again = await complete(ctx, auth, uploadId);
    expect(again.statusCode).toBe(200);
    expect(again.json().upload.id).toBe(upload.id);
    expect(await diskUsedOf(ctx, user.id)).toBe(data.length);
  });

  it('accepts chunks out of order and a re-sent chunk (idempotent)', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 3 + 5);
    const uploadId = await start(auth, data);
    for (const i of [3, 1, 0, 2, 1]) {
      expect((await sendChunk(ctx, auth, uploadId, i, slice(data, i))).statusCode).toBe(204);
    }
    const done = await complete(ctx, auth, uploadId);
    expect(done.statusCode).toBe(201);
    const served = await ctx.app.inject({ method: 'GET', url: `/${done.json().upload.shortCode}` });
    expect(served.rawPayload.equals(data)).toBe(true);
  });

  it('tells which chunks are stored, so a client can resume, and completes after resuming', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 4);
    const uploadId = await start(auth, data);
    await sendChunk(ctx, auth, uploadId, 0, slice(data, 0));
    await sendChunk(ctx, auth, uploadId, 2, slice(data, 2));
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/chunked-upload/${uploadId}`,
      headers: auth,
    });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({
      uploadId,
      filename: 'movie.mp4',
      totalSize: data.length,
      totalChunks: 4,
      chunkSize: SMALL,
      receivedChunks: [0, 2],
    });
    for (let i = 0; i < 4; i++) {
      if (!status.json().receivedChunks.includes(i))
        await sendChunk(ctx, auth, uploadId, i, slice(data, i));
    }
    expect((await complete(ctx, auth, uploadId)).statusCode).toBe(201);
  });

  it('lets another instance (or the same one after a restart) take the next chunks', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 3);
    const uploadId = await start(auth, data);
    await sendChunk(ctx, auth, uploadId, 0, slice(data, 0));
    // A second app over the same database and data directory, with nothing in common in memory.
    const { app: other } = await buildApp({
      config: ctx.config,
      db: ctx.handle.db,
      secretKey: TEST_SECRET,
      chunkSize: SMALL,
    });
    try {
      const c2 = { ...ctx, app: other };
      const status = await other.inject({
        method: 'GET',
        url: `/api/chunked-upload/${uploadId}`,
        headers: auth,
      });
      expect(status.json().receivedChunks).toEqual([0]);
      await sendChunk(c2, auth, uploadId, 1, slice(data, 1));
      await sendChunk(ctx, auth, uploadId, 2, slice(data, 2));
      const done = await complete(c2, auth, uploadId);
      expect(done.statusCode).toBe(201);
      const served = await ctx.app.inject({
        method: 'GET',
        url: `/${done.json().upload.shortCode}`,
      });
      expect(served.rawPayload.equals(data)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('refuses to complete with chunks missing, naming them, and keeps the session', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 3);
    const uploadId = await start(auth, data);
    await sendChunk(ctx, auth, uploadId, 1, slice(data, 1));
    const res = await complete(ctx, auth, uploadId);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Missing chunks: 0, 2');
    const rows = await ctx.handle.db
      .selectFrom('uploads')
      .select('id')
      .where('original_filename', '=', 'missing.bin')
      .execute();
    expect(rows).toHaveLength(0);
    await sendChunk(ctx, auth, uploadId, 0, slice(data, 0));
    await sendChunk(ctx, auth, uploadId, 2, slice(data, 2));
    expect((await complete(ctx, auth, uploadId)).statusCode).toBe(201);
  });

  it('refuses a chunk of the wrong size, an index out of range and missing fields', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2 + 10);
    const uploadId = await start(auth, data);
    const short = await sendChunk(ctx, auth, uploadId, 0, data.subarray(0, SMALL - 1));
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe(`Chunk 0 must be ${SMALL} bytes; received ${SMALL - 1}`);
    const long = await sendChunk(ctx, auth, uploadId, 2, data.subarray(0, 11));
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Chunk 2 is larger than 10 bytes');
    const out = await sendChunk(ctx, auth, uploadId, 3, Buffer.alloc(10));
    expect(out.statusCode).toBe(400);
    expect(out.json().message).toBe('chunkIndex must be between 0 and 2');

    const noFields = multipart({}, { field: 'chunk', filename: 'b', data: Buffer.alloc(10) });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/chunked-upload/chunk',
      headers: { ...auth, ...noFields.headers },
      payload: noFields.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('uploadId is required');
    // A refused chunk is not counted as stored.
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/chunked-upload/${uploadId}`,
      headers: auth,
    });
    expect(status.json().receivedChunks).toEqual([]);
  });

  it('a failed re-send of a stored chunk un-stores it', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2);
    const uploadId = await start(auth, data);
    await sendChunk(ctx, auth, uploadId, 0, slice(data, 0));
    expect((await sendChunk(ctx, auth, uploadId, 0, Buffer.alloc(5))).statusCode).toBe(400);
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/chunked-upload/${uploadId}`,
      headers: auth,
    });
    expect(status.json().receivedChunks).toEqual([]);
  });

  it("refuses someone else's session with 404", async () => {
    const owner = await signIn(ctx);
    const other = await signIn(ctx);
    const data = crypto.randomBytes(SMALL);
    const uploadId = await start(owner.auth, data);
    expect((await sendChunk(ctx, other.auth, uploadId, 0, data)).statusCode).toBe(404);
    expect((await complete(ctx, other.auth, uploadId)).statusCode).toBe(404);
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/chunked-upload/${uploadId}`,
      headers: other.auth,
    });
    expect(status.statusCode).toBe(404);
    expect(status.json().message).toBe('Upload session not found');
  });

  it('checks totalChunks, the size limit and the quota at init', async () => {
    const { user, auth } = await signIn(ctx);
    const wrong = await init(ctx, auth, {
      filename: 'a.bin',
      totalSize: SMALL * 2,
      totalChunks: 3,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(
      `totalChunks must be 2 for a ${SMALL * 2}-byte file in ${SMALL}-byte chunks`,
    );
    const huge = 200 * 1024 ** 3;
    const tooBig = await init(ctx, auth, {
      filename: 'a.bin',
      totalSize: huge,
      totalChunks: Math.ceil(huge / SMALL),
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe('File is larger than the 100 GB limit');
    await ctx.handle.db
      .updateTable('users')
      .set({ disk_quota: SMALL })
      .where('id', '=', user.id)
      .execute();
    const quota = await init(ctx, auth, {
      filename: 'a.bin',
      totalSize: SMALL + 1,
      totalChunks: 2,
    });
    expect(quota.statusCode).toBe(413);
    expect(quota.json().message).toBe('Storage quota exceeded: 64 KB left');
    const missing = await init(ctx, auth, { filename: 'a.bin' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('totalSize is required');
  });

  it('refuses at completion an upload the quota no longer allows, keeping nothing', async () => {
    const { user, auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL + 100);
    const uploadId = await start(auth, data);
    await sendChunk(ctx, auth, uploadId, 0, slice(data, 0));
    await sendChunk(ctx, auth, uploadId, 1, slice(data, 1));
    // Meanwhile the quota shrinks (another upload, or an admin).
    await ctx.handle.db
      .updateTable('users')
      .set({ disk_quota: SMALL })
      .where('id', '=', user.id)
      .execute();
    const filesBefore = filesUnder(path.join(ctx.dataDir, 'files')).length;

    const res = await complete(ctx, auth, uploadId);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Storage quota exceeded: 64 KB left');
    expect(filesUnder(path.join(ctx.dataDir, 'files')).length).toBe(filesBefore);
    expect(await uploadIdsOf(ctx, user.id)).toEqual([]);
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/chunked-upload/${uploadId}`,
      headers: auth,
    });
    expect(status.statusCode).toBe(404);
  });

  it('fills in a digest left missing by a crash: its task is still waiting', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(1000);
    const uploadId = await start(auth, data);
    await sendChunk(ctx, auth, uploadId, 0, data);
    const id = (await complete(ctx, auth, uploadId)).json().upload.id;
    const sha256 = async () =>
      (
        await ctx.handle.db
          .selectFrom('uploads')
          .select('sha256')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).sha256;
    // The digest's task has run and its row is gone (a row for it again would be refused).
    await ctx.background.drain();
    expect(await sha256()).not.toBeNull();
    // As a crash before the digest was stored would leave it: no digest, the task waiting.
    await ctx.handle.db.updateTable('uploads').set({ sha256: null }).where('id', '=', id).execute();
    const now = new Date().toISOString();
    await ctx.handle.db
      .insertInto('tasks')
      .values({
        id: crypto.randomUUID(),
        kind: 'upload.sha256',
        subject_id: id,
        run_after: now,
        created_at: now,
      })
      .execute();
    expect(await ctx.background.drain()).toBeGreaterThanOrEqual(1);
    expect(await sha256()).toBe(crypto.createHash('sha256').update(data).digest('hex'));
  });

  it('removes expired sessions and their bytes in the sweep', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2);
    const uploadId = await start(auth, data);
    await sendChunk(ctx, auth, uploadId, 0, slice(data, 0));
    const multipartDir = path.join(ctx.dataDir, 'tmp', 'multipart');
    const session = await ctx.handle.db
      .selectFrom('chunked_uploads')
      .selectAll()
      .where('id', '=', uploadId)
      .executeTakeFirstOrThrow();
    expect(filesUnder(multipartDir)).toContain(path.join(multipartDir, session.multipart_id));

    ctx.clock.advance(SESSION_TTL_MS + 1000);
    expect((await sendChunk(ctx, auth, uploadId, 1, slice(data, 1))).statusCode).toBe(404);
    expect(await ctx.modules.chunkedUploads.service.sweepExpired()).toBeGreaterThanOrEqual(1);
    expect(filesUnder(multipartDir)).not.toContain(path.join(multipartDir, session.multipart_id));
    const left = await ctx.handle.db
      .selectFrom('chunked_upload_parts')
      .select('chunk_index')
      .where('upload_id', '=', uploadId)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('chunked upload at the real 50 MiB chunk size', () => {
  let real: TestContext;
  beforeAll(async () => {
    real = await createTestContext();
  });
  afterAll(() => real.close());

  it('joins a file of two chunks (50 MiB + remainder)', async () => {
    const { auth } = await signIn(real);
    const data = crypto.randomBytes(CHUNK_SIZE + 4096);
    const res = await init(real, auth, {
      filename: 'big.iso',
      totalSize: data.length,
      totalChunks: 2,
    });
    expect(res.json().chunkSize).toBe(CHUNK_SIZE);
    const { uploadId } = res.json();
    expect((await sendChunk(real, auth, uploadId, 1, data.subarray(CHUNK_SIZE))).statusCode).toBe(
      204,
    );
    expect(
      (await sendChunk(real, auth, uploadId, 0, data.subarray(0, CHUNK_SIZE))).statusCode,
    ).toBe(204);
    const done = await complete(real, auth, uploadId);
    expect(done.statusCode).toBe(201);
    const served = await real.app.inject({
      method: 'GET',
      url: `/${done.json().upload.shortCode}`,
    });
    expect(served.rawPayload.equals(data)).toBe(true);
  });
});
