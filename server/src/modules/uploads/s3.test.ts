/**
 * The uploads module on the S3 driver, end to end against plain s3rver: a video's thumbnail
 * (ffmpeg reads the video through a presigned URL, as there is no local file), a chunked upload
 * (a picture copied through the stripper only when that changes it, found by ranged reads), and
 * the orphan sweep over a bucket.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { objectKey } from '../../storage/storage.ts';
import type { S3Storage } from '../../storage/s3.ts';
import {
  completeChunked,
  sendChunk,
  sessionRow,
  startChunked,
} from '../../../test/chunked-uploads.ts';
import { createTestContext, filesUnder, type TestContext } from '../../../test/context.ts';
import { expectStripped, photoWithMetadata } from '../../../test/images.ts';
import { startS3, type TestS3 } from '../../../test/s3.ts';
import { hlsPlaylist, testVideo, uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { ffmpegAvailable } from './index.ts';

const MiB = 1024 * 1024;
/** S3's smallest part but the last. */
const CHUNK = 5 * MiB;

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.close();
});

/** An app whose uploads and thumbnails live in a new bucket of s3rver. */
async function appOnS3(): Promise<{ ctx: TestContext; storage: S3Storage }> {
  const storage = await s3.storage();
  const ctx = await createTestContext({}, {}, { chunkSize: CHUNK, wrapStorage: () => storage });
  return { ctx, storage };
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const rowOf = (ctx: TestContext, id: string) =>
  ctx.handle.db
    .selectFrom('uploads')
    .select(['storage_key', 'thumbnail_status', 'thumbnail_key'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('a large simple upload to an app on S3', () => {
  it('is hashed as it streams in: its digest is in its row, and the store is never read back', async () => {
    const storage = await s3.storage();
    const reads: string[] = [];
    const ctx = await createTestContext(
      {},
      {},
      {
        wrapStorage: () => ({
          ...storage,
          get: (key, range) => {
            reads.push(key);
            return storage.get(key, range);
          },
        }),
      },
    );
    try {
      // Past the 16 MiB that local disk hashes inline.
      const data = crypto.randomBytes(17 * MiB + 123);
      const { auth } = await signIn(ctx);
      const res = await uploadFile(ctx, auth, { filename: 'big.bin', data });
      expect(res.statusCode, res.body).toBe(201);
      const row = await ctx.handle.db
        .selectFrom('uploads')
        .select('sha256')
        .where('id', '=', res.json().upload.id as string)
        .executeTakeFirstOrThrow();
      expect(row.sha256).toBe(crypto.createHash('sha256').update(data).digest('hex'));
      expect(reads).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});

describe.skipIf(!ffmpegAvailable())('a video uploaded to an app on S3', () => {
  let ctx: TestContext;
  let storage: S3Storage;
  beforeAll(async () => {
    ({ ctx, storage } = await appOnS3());
  });
  afterAll(() => ctx?.close());

  it('gets its thumbnail: ffmpeg reads the video from the store through a presigned URL', async () => {
    // An MP4 with its index after the frames: ffmpeg reads it by Range.
    const video = testVideo();
    const { auth } = await signIn(ctx);
    const res = await uploadFile(ctx, auth, {
      filename: 'clip.mp4',
      contentType: 'video/mp4',
      data: video,
    });
    expect(res.statusCode, res.body).toBe(201);
    const up = res.json().upload as { id: string; shortCode: string; thumbnailUrl: string | null };
    expect(up.thumbnailUrl).not.toBeNull();

    // The background task makes it, with nobody asking.
    await vi.waitFor(async () => expect((await rowOf(ctx, up.id)).thumbnail_status).toBe('ready'), {
      timeout: 30_000,
      interval: 100,
    });
    const row = await rowOf(ctx, up.id);
    expect(storage.localPath(row.storage_key)).toBeNull();
    // Both the video and its thumbnail are in the bucket, and nothing is on local disk.
    expect((await all(storage.list())).map((o) => o.key).sort()).toEqual(
      [row.storage_key, row.thumbnail_key].sort(),
    );
    expect(filesUnder(path.join(ctx.dataDir, 'files'))).toEqual([]);

    const thumb = await ctx.app.inject({ method: 'GET', url: `/thumb/${up.shortCode}` });
    expect(thumb.statusCode).toBe(200);
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 400,
      height: 225,
    });
  });

  it('never lets a video that is really a playlist make ffmpeg fetch the addresses it names', async () => {
    // An address inside the server's network that a playlist could point ffmpeg at.
    const hits: string[] = [];
    const inside = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
    const { port } = inside.address() as AddressInfo;
    try {
      const { auth } = await signIn(ctx);
      const res = await uploadFile(ctx, auth, {
        filename: 'clip.mp4',
        contentType: 'video/mp4',
        data: hlsPlaylist(`http://127.0.0.1:${port}/internal/segment.ts`),
      });
      expect(res.statusCode, res.body).toBe(201);
      const up = res.json().upload as { id: string };
      await vi.waitFor(
        async () => expect((await rowOf(ctx, up.id)).thumbnail_status).toBe('failed'),
        { timeout: 30_000, interval: 100 },
      );
      expect(hits).toEqual([]);
    } finally {
      await new Promise((resolve) => inside.close(resolve));
    }
  });
});

describe('a chunked upload to an app on plain s3rver', () => {
  let ctx: TestContext;
  let storage: S3Storage;
  beforeAll(async () => {
    ({ ctx, storage } = await appOnS3());
  });
  afterAll(() => ctx?.close());

  it('completes from its stored ETags, a chunk sent again included, and serves the same bytes', async () => {
    // Before, completion listed the parts (ListParts, which s3rver lacks): 500.
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(2 * CHUNK + 1234);
    const session = await startChunked(ctx, auth, data, CHUNK, { filename: 'three.bin' });
    const chunk = (i: number) => data.subarray(i * CHUNK, (i + 1) * CHUNK);
    const etagOf = async (index: number) =>
      (
        await ctx.handle.db
          .selectFrom('chunked_upload_parts')
          .select('etag')
          .where('upload_id', '=', session)
          .where('chunk_index', '=', index)
          .executeTakeFirstOrThrow()
      ).etag;
    // Chunk 1 first with other bytes, then again with its own: its part and its ETag are replaced.
    expect((await sendChunk(ctx, auth, session, 1, crypto.randomBytes(CHUNK))).statusCode).toBe(
      204,
    );
    const replaced = await etagOf(1);
    for (const i of [2, 0, 1]) {
      expect((await sendChunk(ctx, auth, session, i, chunk(i))).statusCode).toBe(204);
    }
    expect(await etagOf(1)).not.toBe(replaced);

    const done = await completeChunked(ctx, auth, session);
    expect(done.statusCode, done.body).toBe(201);
    const { shortCode } = done.json().upload as { shortCode: string };
    const served = await ctx.app.inject({ method: 'GET', url: `/${shortCode}` });
    expect(served.statusCode, served.statusCode === 200 ? '' : served.body).toBe(200);
    // Compared as one boolean: a diff of two 10 MiB buffers would take minutes to print.
    expect(served.rawPayload.length).toBe(data.length);
    expect(served.rawPayload.equals(data)).toBe(true);
    expect(await s3.multipartUploads(storage.bucket)).toEqual([]);
  });

  it('copies a picture only when stripping changes it, reading past the first MiB', async () => {
    const { auth } = await signIn(ctx);
    const photo = await photoWithMetadata('webp', 2000);
    expect(photo.length).toBeGreaterThan(MiB); // its EXIF and XMP come last
    const plain = await sharp(photo).jpeg().toBuffer();
    for (const [filename, data, copied] of [
      ['photo.webp', photo, true],
      ['plain.jpg', plain, false],
    ] as const) {
      const session = await startChunked(ctx, auth, data, CHUNK, { filename });
      const joinedKey = (await sessionRow(ctx, session))!.storage_key;
      expect((await sendChunk(ctx, auth, session, 0, data)).statusCode).toBe(204);
      const done = await completeChunked(ctx, auth, session);
      expect(done.statusCode, done.body).toBe(201);
      const { id, shortCode } = done.json().upload as { id: string; shortCode: string };
      const row = await ctx.handle.db
        .selectFrom('uploads')
        .select('storage_key')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.storage_key !== joinedKey, filename).toBe(copied);
      expect(await storage.size(joinedKey), filename).toBe(copied ? null : data.length);
      const served = (await ctx.app.inject({ method: 'GET', url: `/${shortCode}` })).rawPayload;
      if (copied) await expectStripped(served, data, 'webp');
      else expect(served.equals(data), filename).toBe(true);
    }
  });
});

describe('the orphan sweep on S3', () => {
  let ctx: TestContext;
  let storage: S3Storage;
  beforeAll(async () => {
    ({ ctx, storage } = await appOnS3());
  });
  afterAll(() => ctx?.close());

  it("removes old objects nothing points at, leaves live uploads and chunked sessions alone, and multipart uploads to the bucket's lifecycle rule", async () => {
    const { auth } = await signIn(ctx);
    // A live upload.
    const liveData = crypto.randomBytes(64 * 1024);
    const live = await uploadFile(ctx, auth, { filename: 'keep.bin', data: liveData });
    expect(live.statusCode, live.body).toBe(201);
    const liveUpload = live.json().upload as { id: string; shortCode: string };
    const liveKey = (await rowOf(ctx, liveUpload.id)).storage_key;
    // A chunked upload in flight: one of its two parts stored.
    const chunkedData = crypto.randomBytes(CHUNK + 1000);
    const session = await startChunked(ctx, auth, chunkedData, CHUNK, { filename: 'big.bin' });
    expect(
      (await sendChunk(ctx, auth, session, 0, chunkedData.subarray(0, CHUNK))).statusCode,
    ).toBe(204);
    // What a crash or a lost race leaves: objects with no row, a multipart upload with no session.
    const orphans = [
      objectKey('u', crypto.randomBytes(16).toString('hex')),
      objectKey('t', crypto.randomBytes(16).toString('hex')),
    ];
    for (const key of orphans) await storage.put(key, Readable.from([Buffer.from('orphan')]));
    const abandonedKey = objectKey('u', crypto.randomBytes(16).toString('hex'));
    const abandoned = await storage.createMultipart(abandonedKey);
    const uploadsBefore = (await s3.multipartUploads(storage.bucket)).sort();
    expect(uploadsBefore).toHaveLength(2);
    expect(uploadsBefore).toContain(abandoned);

    // All of it is younger than the grace period: nothing goes.
    expect(await ctx.modules.uploads.sweepOrphans()).toEqual({
      objects: [],
      multiparts: [],
      temporary: [],
    });

    // Two hours on, all of it is older than the grace period (an hour).
    ctx.clock.advance(2 * 60 * 60 * 1000);
    const swept = await ctx.modules.uploads.sweepOrphans();
    expect(swept.objects.sort()).toEqual([...orphans].sort());
    // Multipart uploads are never listed (not every store can): the bucket's rule aborts them.
    expect(swept.multiparts).toEqual([]);
    expect(swept.temporary).toEqual([]);
    expect((await s3.multipartUploads(storage.bucket)).sort()).toEqual(uploadsBefore);

    const left = (await all(storage.list())).map((o) => o.key);
    expect(left).toEqual([liveKey]);
    // The live upload still serves its bytes; the chunked upload goes on and completes whole.
    const served = await ctx.app.inject({ method: 'GET', url: `/${liveUpload.shortCode}` });
    expect(served.statusCode, served.statusCode === 200 ? '' : served.body).toBe(200);
    expect(served.rawPayload.equals(liveData)).toBe(true);
    expect((await sendChunk(ctx, auth, session, 1, chunkedData.subarray(CHUNK))).statusCode).toBe(
      204,
    );
    const done = await completeChunked(ctx, auth, session);
    expect(done.statusCode, done.body).toBe(201);
    const big = done.json().upload as { shortCode: string };
    const bigServed = await ctx.app.inject({ method: 'GET', url: `/${big.shortCode}` });
    expect(bigServed.statusCode, bigServed.statusCode === 200 ? '' : bigServed.body).toBe(200);
    expect(bigServed.rawPayload.length).toBe(chunkedData.length);
    expect(bigServed.rawPayload.equals(chunkedData)).toBe(true);

    // Sweeping again finds nothing more.
    expect(await ctx.modules.uploads.sweepOrphans()).toEqual({
      objects: [],
      multiparts: [],
      temporary: [],
    });
  });
});
