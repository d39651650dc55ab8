/**
 * The storage contract as tests, run by every driver's test file against a fresh store per
 * test: what storage.ts promises, including what the uploads, chunked uploads, serving and the
 * orphan sweep rely on (ENOENT for what is missing, StorageSizeError, repeatable completion).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { objectKey, StorageSizeError, type Storage, type StoredPart } from './storage.ts';

export type StorageFixture = {
  storage: Storage;
  /**
   * How many whole-object writes have left something in the store so far (temporary files,
   * multipart uploads), to wait for one that is in flight.
   */
  inFlightWrites(): Promise<number>;
  /** The ids of the multipart uploads the store holds, seen from behind the driver. */
  multipartUploads(): Promise<string[]>;
  cleanup?(): Promise<void>;
};

/** What a store under test cannot do (an emulator's gaps): the tests that need it are skipped. */
export type StoreGaps = Partial<Record<'abort' | 'firstByte' | 'paging' | 'presigned', string>>;

export type SuiteOptions = {
  /**
   * Local disk: localPath answers a readable file, and removeAbandonedMultipart removes what no
   * session holds. Object stores: localPath is null, and their lifecycle rule does the latter.
   */
  localFiles: boolean;
  /** The driver's listing page size, so the listing test spans several pages. */
  listPageSize: number;
  /** Whether presignedGet answers URLs (object stores) or null (local disk). */
  presignedUrls: boolean;
  /** Each with why; the store's other tests run. */
  gaps?: StoreGaps;
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

/** Sends part `index` of `bytes`; answers it as completeMultipart is given it back. */
async function sendPart(
  storage: Storage,
  id: string,
  key: string,
  index: number,
  bytes: Buffer,
  offset = index * PART,
): Promise<StoredPart> {
  const part = { index, offset, size: bytes.length };
  return {
    index,
    size: bytes.length,
    etag: await storage.putPart(id, key, part, Readable.from([bytes])),
  };
}

export function storageSuite(
  name: string,
  make: () => Promise<StorageFixture>,
  options: SuiteOptions,
) {
  const gaps = options.gaps ?? {};
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

    /** Sends `parts` (index -> bytes) in the given order; answers them in index order. */
    async function sendParts(id: string, key: string, parts: Buffer[], order: number[]) {
      const sent: StoredPart[] = [];
      for (const index of order)
        sent[index] = await sendPart(storage, id, key, index, parts[index] as Buffer);
      return sent;
    }

    /**
     * Nothing of any write is left: no object, no temporary file, and no multipart upload
     * (unless the store cannot abort one).
     */
    async function expectNothingLeft(key: string) {
      expect(await storage.size(key)).toBeNull();
      expect(await all(storage.list())).toEqual([]);
      if (!gaps.abort) expect(await fx.multipartUploads()).toEqual([]);
      expect(await storage.removeTemporary(new Date(Date.now() + 60_000))).toEqual([]);
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

      // The driver asks for the first byte and cuts what a store sends past it (s3rver sends
      // the whole object); only a URL the store answers itself depends on the store for it.
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

    describe.skipIf(Boolean(gaps.presigned))('presigned URLs', () => {
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
          ...(gaps.firstByte ? [] : [[0, 0] as const]),
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
        await expectNothingLeft(key);
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
        await expectNothingLeft(key);
      });

      it('a body that fails midway fails the put, and nothing is left behind', async () => {
        const key = newKey();
        const { body } = generated(12 * MiB, 6 * MiB + 1);
        await expect(storage.put(key, body)).rejects.toThrow('the client went away');
        await expectNothingLeft(key);
      });

      it('a 20 MiB body of unknown length streams in whole', async () => {
        const key = newKey();
        const { body, state } = generated(20 * MiB);
        expect(await storage.put(key, body)).toEqual({ size: 20 * MiB });
        expect(await streamHash(await storage.get(key))).toEqual({
          hash: state.hash.digest('hex'),
          size: 20 * MiB,
        });
        expect(await fx.multipartUploads()).toEqual([]);
      });
    });

    describe('listing', () => {
      it('pages through every object and never lists a multipart upload in flight', async () => {
        // Unpaged on a store that cannot page: the listing is one page.
        const count = gaps.paging ? 5 : options.listPageSize * 2 + 1;
        const keys = Array.from({ length: count }, (_, i) => newKey(i % 3 === 0 ? 't' : 'u'));
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
      });

      it('an empty store lists nothing and has nothing to remove', async () => {
        const later = new Date(Date.now() + 60_000);
        expect(await all(storage.list())).toEqual([]);
        expect(await storage.removeAbandonedMultipart(later, new Set())).toEqual([]);
        expect(await storage.removeTemporary(new Date(Date.now() + 60_000))).toEqual([]);
      });
    });

    describe('multipart', () => {
      it('takes parts in any order, a part sent again replaces its copy, and joins them in order', async () => {
        const key = newKey();
        const parts: [Buffer, Buffer, Buffer, Buffer] = [
          random(PART),
          random(PART),
          random(PART),
          random(1000),
        ];
        const id = await storage.createMultipart(key);
        expect(id).toEqual(expect.any(String));
        const replaced = await sendPart(storage, id, key, 1, random(PART));
        const sent = await sendParts(id, key, parts, [3, 0, 2, 1]);
        // An object store tags the copy that replaced it anew; local disk tags none.
        if (!options.localFiles) expect(sent[1]?.etag).not.toBe(replaced.etag);
        expect(await storage.size(key)).toBeNull(); // not an object before completion
        expect(await all(storage.list())).toEqual([]);
        expect(await fx.multipartUploads()).toEqual([id]);

        const total = 3 * PART + 1000;
        await storage.completeMultipart(id, key, sent, total);
        expect(await storage.size(key)).toBe(total);
        expect(await streamHash(await storage.get(key))).toEqual({
          hash: sha256(Buffer.concat(parts)),
          size: total,
        });
        expect(await storage.read(key, { start: PART - 1, end: PART })).toEqual(
          Buffer.concat([parts[0].subarray(PART - 1), parts[1].subarray(0, 1)]),
        );
        expect(await fx.multipartUploads()).toEqual([]);
        expect((await all(storage.list())).map((o) => o.key)).toEqual([key]);

        // Repeatable: a completion whose answer was lost (a crash after it) succeeds again.
        await expect(storage.completeMultipart(id, key, sent, total)).resolves.toBeUndefined();
      });

      it('a part streamed from many small chunks is stored whole', async () => {
        const key = newKey();
        const { body, state } = generated(PART);
        const id = await storage.createMultipart(key);
        const etag = await storage.putPart(id, key, { index: 0, offset: 0, size: PART }, body);
        await storage.completeMultipart(id, key, [{ index: 0, size: PART, etag }], PART);
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
        const stored = await sendPart(storage, id, key, 0, data);
        await storage.completeMultipart(id, key, [stored], 1000);
        expect(await collect(await storage.get(key))).toEqual(data);
      });

      it('completion with another total fails with wrong_size and keeps the parts', async () => {
        const key = newKey();
        const parts = [random(PART), random(10)];
        const id = await storage.createMultipart(key);
        const sent = await sendParts(id, key, parts, [0, 1]);
        const err = await storage
          .completeMultipart(id, key, sent, PART + 11)
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(StorageSizeError);
        expect(err).toMatchObject({
          kind: 'wrong_size',
          message: `Assembled file is ${PART + 10} bytes; expected ${PART + 11}`,
        });
        expect(await storage.size(key)).toBeNull();
        await storage.completeMultipart(id, key, sent, PART + 10);
        expect((await streamHash(await storage.get(key))).hash).toBe(sha256(Buffer.concat(parts)));
      });

      it.skipIf(Boolean(gaps.abort))(
        'abort removes the parts; sending or completing after fails with ENOENT; aborting again is no error',
        async () => {
          const key = newKey();
          const id = await storage.createMultipart(key);
          const stored = await sendPart(storage, id, key, 0, random(10));
          await storage.abortMultipart(id, key);
          expect(await fx.multipartUploads()).toEqual([]);
          await expect(sendPart(storage, id, key, 0, random(10))).rejects.toMatchObject({
            code: 'ENOENT',
          });
          await expect(storage.completeMultipart(id, key, [stored], 10)).rejects.toMatchObject({
            code: 'ENOENT',
          });
          await expect(storage.abortMultipart(id, key)).resolves.toBeUndefined();
          await expectNothingLeft(key);
        },
      );
    });

    describe('the orphan sweep', () => {
      /** Completes a one-part upload of 5 bytes. */
      const finish = async (id: string, key: string) => {
        await storage.completeMultipart(
          id,
          key,
          [await sendPart(storage, id, key, 0, random(5))],
          5,
        );
        expect(await storage.size(key)).toBe(5);
      };

      it.skipIf(!options.localFiles)(
        'removeAbandonedMultipart removes uploads untouched since the cutoff that nothing holds',
        async () => {
          const [staleKey, liveKey, busyKey, freshKey] = [newKey(), newKey(), newKey(), newKey()];
          const stale = await storage.createMultipart(staleKey);
          await sendPart(storage, stale, staleKey, 0, random(10));
          const live = await storage.createMultipart(liveKey);
          const busy = await storage.createMultipart(busyKey);
          await sleep(1100);
          const cutoff = new Date(Date.now() - 500);
          const fresh = await storage.createMultipart(freshKey);
          // Started before the cutoff, but a part came after it: still in use.
          await sendPart(storage, busy, busyKey, 0, random(5));

          expect(await storage.removeAbandonedMultipart(cutoff, new Set([live]))).toEqual([stale]);
          expect((await fx.multipartUploads()).sort()).toEqual([live, busy, fresh].sort());
          await expect(storage.completeMultipart(stale, staleKey, [], 10)).rejects.toMatchObject({
            code: 'ENOENT',
          });
          // The others go on.
          for (const [id, key] of [
            [live, liveKey],
            [busy, busyKey],
            [fresh, freshKey],
          ] as const) {
            await finish(id, key);
          }
        },
      );

      it.skipIf(options.localFiles)(
        "removeAbandonedMultipart touches nothing: the bucket's lifecycle rule aborts what is left",
        async () => {
          const key = newKey();
          const id = await storage.createMultipart(key);
          const later = new Date(Date.now() + 60_000);
          expect(await storage.removeAbandonedMultipart(later, new Set())).toEqual([]);
          expect(await fx.multipartUploads()).toEqual([id]);
          await finish(id, key);
        },
      );

      it.skipIf(!options.localFiles)(
        'reclaims a whole-object write cut off long ago, not one still going',
        async () => {
          const oldKey = newKey();
          const newerKey = newKey();
          const oldBody = new PassThrough();
          const oldPut = storage.put(oldKey, oldBody).then(
            () => null,
            (e: unknown) => e,
          );
          oldBody.write(random(6 * MiB));
          await until(async () => (await fx.inFlightWrites()) >= 1, 'the first write to start');
          await sleep(1100);
          const cutoff = new Date(Date.now() - 500);
          const newerBody = new PassThrough();
          const newerPut = storage.put(newerKey, newerBody);
          const newerData = random(6 * MiB);
          newerBody.write(newerData.subarray(0, 6 * MiB - 10));
          await until(async () => (await fx.inFlightWrites()) >= 2, 'the second write to start');

          expect(await storage.removeTemporary(cutoff)).toHaveLength(1);

          newerBody.end(newerData.subarray(6 * MiB - 10));
          expect(await newerPut).toEqual({ size: 6 * MiB });
          expect((await streamHash(await storage.get(newerKey))).hash).toBe(sha256(newerData));

          oldBody.end(random(10));
          expect(await oldPut).toBeInstanceOf(Error);
          expect(await storage.size(oldKey)).toBeNull();
          expect(await storage.removeTemporary(new Date(Date.now() + 60_000))).toEqual([]);
        },
      );
    });
  });
}
