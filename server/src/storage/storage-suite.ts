/**
 * The storage contract as tests, run by every driver's test file against a fresh store per
 * test: what storage.ts promises, including what the uploads, chunked uploads, serving and the
 * orphan sweep rely on (ENOENT for what is missing, StorageSizeError, repeatable completion).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { objectKey, StorageSizeError, type Storage } from './storage.ts';

export type StorageFixture = {
  storage: Storage;
  /**
   * How many whole-object writes have left something in the store so far (temporary files,
   * multipart uploads), to wait for one that is in flight.
   */
  inFlightWrites(): Promise<number>;
  cleanup?(): Promise<void>;
};

export type SuiteOptions = {
  /** Whether localPath answers a readable file (local disk) or null (object stores). */
  localFiles: boolean;
  /** The driver's listing page size, so the listing test spans several pages. */
  listPageSize: number;
  /** Whether presignedGet answers URLs (object stores) or null (local disk). */
  presignedUrls: boolean;
};

const MiB = 1024 * 1024;
/** S3's smallest part but the last; the chunked tests use it on every driver. */
const PART = 5 * MiB;

/** Presign options for tests that are not about them. */
const presign = {
  expiresInSeconds: 60,
  contentType: 'application/octet-stream',
  contentDisposition: 'attachment',
};

const newKey = (kind: 'u' | 't' = 'u') => objectKey(kind, crypto.randomBytes(10).toString('hex'));
const random = (n: number) => crypto.randomBytes(n);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function streamHash(stream: Readable): Promise<{ hash: string; size: number }> {
  const h = crypto.createHash('sha256');
  let size = 0;
  for await (const c of stream) {
    h.update(c as Buffer);
    size += (c as Buffer).length;
  }
  return { hash: h.digest('hex'), size };
}

/**
 * A body of unknown length: `total` random bytes in 64 KiB chunks from a generator, hashed as
 * they are made; `fail` makes it error after that many bytes instead.
 */
function generated(total: number, fail?: number) {
  const state = { produced: 0, hash: crypto.createHash('sha256') };
  async function* chunks() {
    while (state.produced < total) {
      if (fail !== undefined && state.produced >= fail) throw new Error('the client went away');
      const c = random(Math.min(64 * 1024, total - state.produced));
      state.produced += c.length;
      state.hash.update(c);
      yield c;
    }
  }
  return { body: Readable.from(chunks()), state };
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** What the orphan sweep does with in-flight writes (uploads/orphans.ts), by id alone. */
async function sweep(storage: Storage, cutoff: Date, live: Set<string>) {
  const aborted: string[] = [];
  for await (const { multipartId, modifiedAt } of storage.listMultipart()) {
    if (modifiedAt > cutoff || live.has(multipartId)) continue;
    await storage.abortMultipart(multipartId, '');
    aborted.push(multipartId);
  }
  return { aborted, temporary: await storage.removeTemporary(cutoff) };
}

/** Nothing of any write is left: no object, no multipart upload, no temporary file. */
async function expectNothingLeft(storage: Storage, key: string) {
  expect(await storage.size(key)).toBeNull();
  expect(await all(storage.list())).toEqual([]);
  expect(await all(storage.listMultipart())).toEqual([]);
  expect(await storage.removeTemporary(new Date(Date.now() + 60_000))).toEqual([]);
}

export function storageSuite(
  name: string,
  make: () => Promise<StorageFixture>,
  options: SuiteOptions,
) {
  describe(`storage contract: ${name}`, () => {
    let fx: StorageFixture;
    let storage: Storage;
    beforeEach(async () => {
      fx = await make();
      storage = fx.storage;
    });
    afterEach(async () => {
      await fx.cleanup?.();
    });

    /** Sends `parts` (index -> bytes) of a multipart upload in the given order. */
    async function sendParts(id: string, key: string, parts: Buffer[], order: number[]) {
      for (const index of order) {
        const bytes = parts[index] as Buffer;
        await storage.putPart(
          id,
          key,
          { index, offset: index * PART, size: bytes.length },
          Readable.from([bytes]),
        );
      }
    }

    it('check passes on a store in working order', async () => {
      await expect(storage.check()).resolves.toBeUndefined();
    });

    describe('whole objects', () => {
      it('put streams a body in, get streams it back, size tells its length', async () => {
        const key = newKey();
        const data = random(100 * 1024);
        expect(
          await storage.put(key, Readable.from([data.subarray(0, 5000), data.subarray(5000)])),
        ).toEqual({
          size: data.length,
        });
        expect(await collect(await storage.get(key))).toEqual(data);
        expect(await storage.size(key)).toBe(data.length);
      });

      it('an empty body makes an empty object', async () => {
        const key = newKey('t');
        expect(await storage.put(key, Readable.from([]))).toEqual({ size: 0 });
        expect(await storage.size(key)).toBe(0);
        expect((await collect(await storage.get(key))).length).toBe(0);
      });

      it('put replaces what the key held', async () => {
        const key = newKey();
        await storage.put(key, Readable.from([random(3000)]));
        const second = random(1000);
        await storage.put(key, Readable.from([second]));
        expect(await collect(await storage.get(key))).toEqual(second);
        expect(await storage.size(key)).toBe(1000);
      });

      it('get and read serve ranges: the first byte, the last, the middle, the whole', async () => {
        const key = newKey();
        const data = random(1000);
        await storage.put(key, Readable.from([data]));
        for (const range of [
          { start: 0, end: 0 },
          { start: 999, end: 999 },
          { start: 10, end: 19 },
          { start: 0, end: 999 },
        ]) {
          const want = data.subarray(range.start, range.end + 1);
          expect(await collect(await storage.get(key, range)), JSON.stringify(range)).toEqual(want);
          expect(await storage.read(key, range), JSON.stringify(range)).toEqual(want);
        }
      });

      it('a range past the end: read answers what exists, and nothing from beyond it', async () => {
        const key = newKey();
        const data = random(1000);
        await storage.put(key, Readable.from([data]));
        expect(await storage.read(key, { start: 990, end: 1999 })).toEqual(data.subarray(990));
        expect((await storage.read(key, { start: 1000, end: 1010 })).length).toBe(0);
        expect((await collect(await storage.get(key, { start: 1000, end: 1010 }))).length).toBe(0);
      });

      it('a missing key: get and read fail with ENOENT, size is null, delete is no error', async () => {
        const key = newKey();
        await expect(storage.get(key)).rejects.toMatchObject({ code: 'ENOENT' });
        await expect(storage.get(key, { start: 0, end: 9 })).rejects.toMatchObject({
          code: 'ENOENT',
        });
        await expect(storage.read(key, { start: 0, end: 9 })).rejects.toMatchObject({
          code: 'ENOENT',
        });
        expect(await storage.size(key)).toBeNull();
        await expect(storage.delete(key)).resolves.toBeUndefined();
      });

      it('delete removes the object', async () => {
        const key = newKey();
        const other = newKey();
        await storage.put(key, Readable.from([random(10)]));
        await storage.put(other, Readable.from([random(10)]));
        await storage.delete(key);
        expect(await storage.size(key)).toBeNull();
        await expect(storage.get(key)).rejects.toMatchObject({ code: 'ENOENT' });
        expect((await all(storage.list())).map((o) => o.key)).toEqual([other]);
      });

      it('refuses keys the server did not make', async () => {
        for (const bad of ['../../etc/passwd', 'u/ab/cd/../x', 'U/ab/cd/x', 'u/ab/x', '']) {
          await expect(storage.put(bad, Readable.from([random(1)])), bad).rejects.toThrow(
            /invalid storage key/,
          );
          await expect(storage.get(bad), bad).rejects.toThrow(/invalid storage key/);
          await expect(storage.delete(bad), bad).rejects.toThrow(/invalid storage key/);
          await expect(storage.createMultipart(bad), bad).rejects.toThrow(/invalid storage key/);
          await expect(storage.presignedGet(bad, presign), bad).rejects.toThrow(
            /invalid storage key/,
          );
        }
      });

      it(`localPath ${options.localFiles ? 'names the file' : 'is null'}`, async () => {
        const key = newKey();
        const data = random(100);
        await storage.put(key, Readable.from([data]));
        const file = storage.localPath(key);
        if (options.localFiles) expect(fs.readFileSync(file as string)).toEqual(data);
        else expect(file).toBeNull();
      });
    });

    describe('presigned URLs', () => {
      /** How Upshot serves a file whose name is not ASCII (content-disposition's two forms). */
      const disposition = `attachment; filename="r_sum_.mp4"; filename*=UTF-8''r%C3%A9sum%C3%A9.mp4`;
      const stored = async (size = 100 * 1024) => {
        const key = newKey();
        const data = random(size);
        await storage.put(key, Readable.from([data]));
        return { key, data };
      };
      const fetchBytes = async (url: string, headers: Record<string, string> = {}) => {
        const res = await fetch(url, { headers });
        return { res, body: Buffer.from(await res.arrayBuffer()) };
      };

      if (!options.presignedUrls) {
        it('presignedGet answers null: the server sends the bytes itself', async () => {
          const { key } = await stored(10);
          expect(await storage.presignedGet(key, presign)).toBeNull();
        });
        return;
      }

      it('a presigned URL gives plain fetch the bytes, with the type and disposition asked for', async () => {
        const { key, data } = await stored();
        const url = await storage.presignedGet(key, {
          expiresInSeconds: 60,
          contentType: 'video/mp4',
          contentDisposition: disposition,
        });
        expect(url).toMatch(/^https?:\/\//);
        const { res, body } = await fetchBytes(url as string);
        expect(res.status).toBe(200);
        expect(body).toEqual(data);
        expect(res.headers.get('content-type')).toBe('video/mp4');
        expect(res.headers.get('content-disposition')).toBe(disposition);
        expect(res.headers.get('content-length')).toBe(String(data.length));
      });

      it('a presigned URL honours Range: the first byte, the middle, the last', async () => {
        const { key, data } = await stored();
        const url = (await storage.presignedGet(key, {
          expiresInSeconds: 60,
          contentType: 'application/octet-stream',
          contentDisposition: 'inline',
        })) as string;
        const n = data.length;
        for (const [start, end] of [
          [0, 0],
          [1000, 1999],
          [n - 1, n - 1],
        ] as const) {
          const { res, body } = await fetchBytes(url, { range: `bytes=${start}-${end}` });
          expect(res.status, `${start}-${end}`).toBe(206);
          expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${n}`);
          expect(res.headers.get('content-type')).toBe('application/octet-stream');
          expect(res.headers.get('content-disposition')).toBe('inline');
          expect(body).toEqual(data.subarray(start, end + 1));
        }
      });

      it('a presigned URL fails once expired', async () => {
        const { key, data } = await stored(1000);
        const url = (signedAt: Date, expiresInSeconds: number) =>
          storage.presignedGet(key, { ...presign, expiresInSeconds, signedAt }) as Promise<string>;
        const ago = (s: number) => new Date(Date.now() - s * 1000);
        // Signed 10 s ago for a minute: still good, so the refusals below are about time.
        const live = await fetchBytes(await url(ago(10), 60));
        expect(live.res.status).toBe(200);
        expect(live.body).toEqual(data);
        for (const [signed, lifetime] of [
          [ago(10), 1],
          [ago(2 * 3600), 3600],
        ] as const) {
          const { res } = await fetchBytes(await url(signed, lifetime));
          expect(res.status).toBe(403);
          expect(
            (await fetchBytes(await url(signed, lifetime), { range: 'bytes=0-0' })).res.status,
          ).toBe(403);
        }
      });

      it('what a presigned URL asks for is signed: a URL changed by its holder is refused', async () => {
        const { key } = await stored(1000);
        const url = new URL(
          (await storage.presignedGet(key, {
            expiresInSeconds: 60,
            contentType: 'image/png',
            contentDisposition: 'inline; filename="a.png"',
          })) as string,
        );
        expect((await fetchBytes(url.href)).res.status).toBe(200);
        for (const [name, value] of [
          ['response-content-type', 'text/html'],
          ['response-content-disposition', 'attachment'],
          ['X-Amz-Expires', '604800'],
        ]) {
          const changed = new URL(url);
          changed.searchParams.set(name as string, value as string);
          expect((await fetchBytes(changed.href)).res.status, name).toBe(403);
        }
      });

      it('a presigned URL for a missing object answers 404', async () => {
        const url = (await storage.presignedGet(newKey(), presign)) as string;
        expect((await fetchBytes(url)).res.status).toBe(404);
      });
    });

    describe('maxBytes and failed writes', () => {
      it('a body of exactly maxBytes is stored', async () => {
        const key = newKey();
        const data = random(10);
        expect(await storage.put(key, Readable.from([data]), { maxBytes: 10 })).toEqual({
          size: 10,
        });
        expect(await storage.read(key, { start: 0, end: 9 })).toEqual(data);
      });

      it('one byte past maxBytes fails with too_large and stores nothing', async () => {
        const key = newKey();
        const err = await storage
          .put(key, Readable.from([random(6), random(5)]), { maxBytes: 10 })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(StorageSizeError);
        expect(err).toMatchObject({ kind: 'too_large', message: 'File is larger than allowed' });
        await expectNothingLeft(storage, key);
      });

      it('a large body past maxBytes is stopped while streaming, and nothing is left behind', async () => {
        const key = newKey();
        // Past one part, so an object store has begun a multipart upload when the limit hits.
        const { body, state } = generated(14 * MiB);
        const err = await storage.put(key, body, { maxBytes: 6 * MiB }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(StorageSizeError);
        expect(err).toMatchObject({ kind: 'too_large' });
        // Refused at the limit, not after reading the whole body.
        expect(state.produced).toBeLessThan(8 * MiB);
        await expectNothingLeft(storage, key);
      });

      it('a body that fails midway fails the put, and nothing is left behind', async () => {
        const key = newKey();
        const { body } = generated(12 * MiB, 6 * MiB + 1);
        await expect(storage.put(key, body)).rejects.toThrow('the client went away');
        await expectNothingLeft(storage, key);
      });

      it('a 20 MiB body of unknown length streams in whole', async () => {
        const key = newKey();
        const { body, state } = generated(20 * MiB);
        expect(await storage.put(key, body)).toEqual({ size: 20 * MiB });
        expect(await streamHash(await storage.get(key))).toEqual({
          hash: state.hash.digest('hex'),
          size: 20 * MiB,
        });
        expect(await all(storage.listMultipart())).toEqual([]);
      });
    });

    describe('listing', () => {
      it('pages through every object and never lists a multipart upload in flight', async () => {
        const keys = Array.from({ length: options.listPageSize * 2 + 1 }, (_, i) =>
          newKey(i % 3 === 0 ? 't' : 'u'),
        );
        const before = Date.now();
        for (const key of keys) await storage.put(key, Readable.from([random(20)]));
        const pending = newKey();
        const id = await storage.createMultipart(pending);
        await storage.putPart(
          id,
          pending,
          { index: 0, offset: 0, size: 100 },
          Readable.from([random(100)]),
        );

        const listed = await all(storage.list());
        expect(listed.map((o) => o.key).sort()).toEqual([...keys].sort());
        for (const { modifiedAt } of listed) {
          expect(modifiedAt.getTime()).toBeGreaterThan(before - 5000);
          expect(modifiedAt.getTime()).toBeLessThan(Date.now() + 5000);
        }
        await storage.abortMultipart(id, pending);
      });

      it('an empty store lists nothing', async () => {
        expect(await all(storage.list())).toEqual([]);
        expect(await all(storage.listMultipart())).toEqual([]);
        expect(await storage.removeTemporary(new Date(Date.now() + 60_000))).toEqual([]);
      });
    });

    describe('multipart', () => {
      it('takes parts in any order, a part sent again replaces its copy, and joins them in order', async () => {
        const key = newKey();
        // More parts than a listing page holds, so an object store lists them in pages.
        const parts: [Buffer, Buffer, Buffer, Buffer] = [
          random(PART),
          random(PART),
          random(PART),
          random(1000),
        ];
        const id = await storage.createMultipart(key);
        expect(id).toEqual(expect.any(String));
        await storage.putPart(
          id,
          key,
          { index: 1, offset: PART, size: PART },
          Readable.from([random(PART)]),
        );
        await sendParts(id, key, parts, [3, 0, 2, 1]);
        expect(await storage.size(key)).toBeNull(); // not an object before completion
        expect(await all(storage.list())).toEqual([]);
        expect((await all(storage.listMultipart())).map((m) => m.multipartId)).toEqual([id]);

        const total = 3 * PART + 1000;
        await storage.completeMultipart(id, key, total);
        expect(await storage.size(key)).toBe(total);
        expect(await streamHash(await storage.get(key))).toEqual({
          hash: sha256(Buffer.concat(parts)),
          size: total,
        });
        expect(await storage.read(key, { start: PART - 1, end: PART })).toEqual(
          Buffer.concat([parts[0].subarray(PART - 1), parts[1].subarray(0, 1)]),
        );
        expect(await all(storage.listMultipart())).toEqual([]);
        expect((await all(storage.list())).map((o) => o.key)).toEqual([key]);

        // Repeatable: a completion whose answer was lost succeeds again.
        await expect(storage.completeMultipart(id, key, total)).resolves.toBeUndefined();
      });

      it('a part streamed from many small chunks is stored whole', async () => {
        const key = newKey();
        const { body, state } = generated(PART);
        const id = await storage.createMultipart(key);
        await storage.putPart(id, key, { index: 0, offset: 0, size: PART }, body);
        await storage.completeMultipart(id, key, PART);
        expect((await streamHash(await storage.get(key))).hash).toBe(state.hash.digest('hex'));
      });

      it('a part of the wrong size fails with wrong_size, and the right one is taken after', async () => {
        const key = newKey();
        const id = await storage.createMultipart(key);
        const part = { index: 0, offset: 0, size: 1000 };
        await expect(
          storage.putPart(id, key, part, Readable.from([random(1001)])),
        ).rejects.toMatchObject({
          kind: 'wrong_size',
          message: 'Chunk 0 is larger than 1000 bytes',
        });
        await expect(
          storage.putPart(id, key, part, Readable.from([random(999)])),
        ).rejects.toMatchObject({
          kind: 'wrong_size',
          message: 'Chunk 0 must be 1000 bytes; received 999',
        });
        const data = random(1000);
        await storage.putPart(id, key, part, Readable.from([data]));
        await storage.completeMultipart(id, key, 1000);
        expect(await collect(await storage.get(key))).toEqual(data);
      });

      it('completion with another total fails with wrong_size and keeps the parts', async () => {
        const key = newKey();
        const parts = [random(PART), random(10)];
        const id = await storage.createMultipart(key);
        await sendParts(id, key, parts, [0, 1]);
        const err = await storage.completeMultipart(id, key, PART + 11).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(StorageSizeError);
        expect(err).toMatchObject({
          kind: 'wrong_size',
          message: `Assembled file is ${PART + 10} bytes; expected ${PART + 11}`,
        });
        expect(await storage.size(key)).toBeNull();
        await storage.completeMultipart(id, key, PART + 10);
        expect((await streamHash(await storage.get(key))).hash).toBe(sha256(Buffer.concat(parts)));
      });

      it('abort removes the parts; sending or completing after fails with ENOENT; aborting again is no error', async () => {
        const key = newKey();
        const id = await storage.createMultipart(key);
        await storage.putPart(
          id,
          key,
          { index: 0, offset: 0, size: 10 },
          Readable.from([random(10)]),
        );
        await storage.abortMultipart(id, key);
        expect(await all(storage.listMultipart())).toEqual([]);
        await expect(
          storage.putPart(id, key, { index: 0, offset: 0, size: 10 }, Readable.from([random(10)])),
        ).rejects.toMatchObject({ code: 'ENOENT' });
        await expect(storage.completeMultipart(id, key, 10)).rejects.toMatchObject({
          code: 'ENOENT',
        });
        await expect(storage.abortMultipart(id, key)).resolves.toBeUndefined();
        await expectNothingLeft(storage, key);
      });
    });

    describe('the orphan sweep', () => {
      it('listMultipart tells each upload in flight its last activity; stale ones not in use are aborted by id', async () => {
        const staleKey = newKey();
        const liveKey = newKey();
        const busyKey = newKey();
        const freshKey = newKey();
        const stale = await storage.createMultipart(staleKey);
        await storage.putPart(
          stale,
          staleKey,
          { index: 0, offset: 0, size: 10 },
          Readable.from([random(10)]),
        );
        const live = await storage.createMultipart(liveKey);
        const busy = await storage.createMultipart(busyKey);
        await sleep(2100); // object stores keep times to the second
        const cutoff = new Date(Date.now() - 1000);
        const fresh = await storage.createMultipart(freshKey);
        // Started before the cutoff, but a part came after it: still in use.
        await storage.putPart(
          busy,
          busyKey,
          { index: 0, offset: 0, size: 5 },
          Readable.from([random(5)]),
        );

        const listed = new Map((await all(storage.listMultipart())).map((m) => [m.multipartId, m]));
        expect([...listed.keys()].sort()).toEqual([stale, live, busy, fresh].sort());
        expect(listed.get(stale)?.modifiedAt.getTime()).toBeLessThan(cutoff.getTime());
        expect(listed.get(busy)?.modifiedAt.getTime()).toBeGreaterThanOrEqual(cutoff.getTime());
        expect(listed.get(fresh)?.modifiedAt.getTime()).toBeGreaterThanOrEqual(cutoff.getTime());

        expect(await sweep(storage, cutoff, new Set([live]))).toEqual({
          aborted: [stale],
          temporary: [],
        });
        expect((await all(storage.listMultipart())).map((m) => m.multipartId).sort()).toEqual(
          [live, busy, fresh].sort(),
        );
        await expect(storage.completeMultipart(stale, staleKey, 10)).rejects.toMatchObject({
          code: 'ENOENT',
        });
        // The others go on.
        await storage.completeMultipart(busy, busyKey, 5);
        for (const [id, key] of [
          [live, liveKey],
          [fresh, freshKey],
        ] as const) {
          await storage.putPart(
            id,
            key,
            { index: 0, offset: 0, size: 5 },
            Readable.from([random(5)]),
          );
          await storage.completeMultipart(id, key, 5);
          expect(await storage.size(key)).toBe(5);
        }
      });

      it('reclaims a whole-object write cut off long ago, not one still going', async () => {
        const oldKey = newKey();
        const newerKey = newKey();
        const oldBody = new PassThrough();
        const oldPut = storage.put(oldKey, oldBody).then(
          () => null,
          (e: unknown) => e,
        );
        oldBody.write(random(6 * MiB)); // past one part: an object store has a multipart upload
        await until(async () => (await fx.inFlightWrites()) >= 1, 'the first write to start');
        await sleep(2100);
        const cutoff = new Date(Date.now() - 1000);
        const newerBody = new PassThrough();
        const newerPut = storage.put(newerKey, newerBody);
        const newerData = random(6 * MiB);
        newerBody.write(newerData.subarray(0, 6 * MiB - 10));
        await until(async () => (await fx.inFlightWrites()) >= 2, 'the second write to start');

        const swept = await sweep(storage, cutoff, new Set());
        expect(swept.aborted.length + swept.temporary.length).toBe(1);

        newerBody.end(newerData.subarray(6 * MiB - 10));
        expect(await newerPut).toEqual({ size: 6 * MiB });
        expect((await streamHash(await storage.get(newerKey))).hash).toBe(sha256(newerData));

        oldBody.end(random(10));
        expect(await oldPut).toBeInstanceOf(Error);
        expect(await storage.size(oldKey)).toBeNull();
        expect(await all(storage.listMultipart())).toEqual([]);
        expect(await storage.removeTemporary(new Date(Date.now() + 60_000))).toEqual([]);
      });
    });
  });
}
