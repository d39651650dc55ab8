/**
 * Byte ranges of a link (RFC 9110 section 14), on local disk and on S3 (s3rver, bytes through
 * Upshot), for a file read whole into memory and one streamed: single, open-ended and suffix
 * ranges, ends past the file, unsatisfiable ones (416 with the size), ranges Upshot answers
 * whole (several, malformed), If-Range with the ETag or anything else, HEAD, and 304 first.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { startS3, type TestS3 } from '../../../test/s3.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { SMALL_BODY_BYTES } from './service.ts';

type Setup = { ctx: TestContext; auth: Record<string, string> };

async function local(): Promise<Setup & { close: () => Promise<void> }> {
  const ctx = await createTestContext();
  const { auth } = await signIn(ctx);
  return { ctx, auth, close: () => ctx.close() };
}

async function onS3(): Promise<Setup & { close: () => Promise<void> }> {
  const s3: TestS3 = await startS3();
  const storage = await s3.storage();
  const ctx = await createTestContext(
    {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: 'unused-the-storage-is-given',
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
    {},
    { wrapStorage: () => storage },
  );
  const { auth } = await signIn(ctx);
  return {
    ctx,
    auth,
    close: async () => {
      await ctx.close();
      await s3.close();
    },
  };
}

describe.each([
  ['local disk', local],
  ['S3', onS3],
])('ranges on %s', (_, setUp) => {
  let setup: Awaited<ReturnType<typeof local>>;
  beforeAll(async () => {
    setup = await setUp();
  });
  afterAll(() => setup?.close());

  describe.each([
    ['a small file', 10_000],
    ['a large file', SMALL_BODY_BYTES * 3 + 12_345],
  ])('of %s', (_, size) => {
    const data = crypto.randomBytes(size);
    let url: string;
    let etag: string;
    let lastModified: string;
    beforeAll(async () => {
      const res = await uploadFile(setup.ctx, setup.auth, {
        filename: 'clip.mp4',
        contentType: 'video/mp4',
        data,
      });
      expect(res.statusCode, res.body).toBe(201);
      url = `/${res.json<{ upload: { shortCode: string } }>().upload.shortCode}`;
      const head = await send();
      etag = String(head.headers.etag);
      lastModified = String(head.headers['last-modified']);
    });

    const send = (headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
      setup.ctx.app.inject({ method, url, headers });

    /** 206 with exactly these bytes, and the headers that say which. */
    async function expectPart(headers: Record<string, string>, first: number, last: number) {
      const res = await send(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes ${first}-${last}/${size}`);
      expect(res.headers['content-length']).toBe(String(last - first + 1));
      expect(res.rawPayload.equals(data.subarray(first, last + 1))).toBe(true);
    }

    /** 200 with the whole file. */
    async function expectWhole(headers: Record<string, string>) {
      const res = await send(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(res.headers['content-length']).toBe(String(size));
      expect(res.headers['content-range']).toBeUndefined();
      expect(res.rawPayload.equals(data)).toBe(true);
    }

    it('answers the whole file, saying ranges are accepted', async () => {
      await expectWhole({});
      expect((await send()).headers['accept-ranges']).toBe('bytes');
    });

    it('answers single, open-ended and suffix ranges', async () => {
      await expectPart({ range: 'bytes=0-0' }, 0, 0);
      await expectPart({ range: 'bytes=100-199' }, 100, 199);
      await expectPart({ range: `bytes=${size - 1}-${size - 1}` }, size - 1, size - 1);
      await expectPart({ range: 'bytes=5000-' }, 5000, size - 1);
      await expectPart({ range: 'bytes=-10' }, size - 10, size - 1);
      await expectPart({ range: `bytes=${size - 7000}-${size + 5000}` }, size - 7000, size - 1);
      await expectPart({ range: `bytes=-${size + 100}` }, 0, size - 1);
      await expectPart({ range: ' bytes=10-19 ' }, 10, 19);
    });

    it('answers a range past the end with 416 and the size', async () => {
      for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
        const res = await send({ range });
        expect(res.statusCode, range).toBe(416);
        expect(res.headers['content-range']).toBe(`bytes */${size}`);
        expect(res.body).toBe('');
      }
    });

    it('answers several ranges, or ones it cannot read, with the whole file', async () => {
      for (const range of ['bytes=0-1,5-6', 'bytes=abc', 'items=0-1', 'bytes=-', 'bytes=1-2-3']) {
        await expectWhole({ range });
      }
    });

    it('honours If-Range only with its own ETag', async () => {
      await expectPart({ range: 'bytes=10-19', 'if-range': etag }, 10, 19);
      await expectWhole({ range: 'bytes=10-19', 'if-range': '"another-version"' });
      // A weak ETag never matches If-Range (strong comparison).
      await expectWhole({ range: 'bytes=10-19', 'if-range': `W/${etag}` });
      // A date is not compared: the whole file is always a safe answer.
      await expectWhole({ range: 'bytes=10-19', 'if-range': lastModified });
    });

    it('answers HEAD with the headers and no body', async () => {
      const res = await send({}, 'HEAD');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-length']).toBe(String(size));
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.rawPayload.length).toBe(0);
    });

    it('answers a current copy with 304 before any range', async () => {
      const res = await send({ range: 'bytes=0-9', 'if-none-match': etag });
      expect(res.statusCode).toBe(304);
      expect(res.body).toBe('');
    });
  });

  it('answers any range of an empty file with 416', async () => {
    const res = await uploadFile(setup.ctx, setup.auth, {
      filename: 'empty',
      data: Buffer.alloc(0),
    });
    const url = `/${res.json<{ upload: { shortCode: string } }>().upload.shortCode}`;
    const whole = await setup.ctx.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.length).toBe(0);
    for (const range of ['bytes=0-', 'bytes=0-0', 'bytes=-1']) {
      const part = await setup.ctx.app.inject({ method: 'GET', url, headers: { range } });
      expect(part.statusCode, range).toBe(416);
      expect(part.headers['content-range']).toBe('bytes */0');
    }
  });
});
