/**
 * The S3 driver against two independent S3 stores from the npm registry: the storage contract
 * on s3rver (less what it lacks, test/s3.ts S3RVER_GAPS) and on fauxqs (Node 22.5 and later),
 * and what is the driver's own: how it streams, names parts, keeps to its prefix, gives up on a
 * silent store and explains a refused start-up check.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { Readable } from 'node:stream';
import {
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fauxqsRuns, S3RVER_GAPS, startFauxqs, startS3, type TestS3 } from '../../test/s3.ts';
import { createS3Storage, StorageConfigError, type S3Storage } from './s3.ts';
import { storageSuite, type StorageFixture, type SuiteOptions } from './storage-suite.ts';
import { objectKey } from './storage.ts';

const MiB = 1024 * 1024;
const PAGE = 3;
const newKey = () => objectKey('u', crypto.randomBytes(10).toString('hex'));

let s3: TestS3;
let fauxqs: TestS3 | undefined;
beforeAll(async () => {
  s3 = await startS3();
  if (fauxqsRuns) fauxqs = await startFauxqs();
});
afterAll(async () => {
  await s3?.close();
  await fauxqs?.close();
});

async function count(items: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const item of items) if (item) n += 1;
  return n;
}

function fixture(store: TestS3, storage: S3Storage, cleanup?: () => Promise<void>): StorageFixture {
  const multipartUploads = () => store.multipartUploads(storage.bucket);
  // A whole-object write in flight past its first part is a multipart upload.
  return {
    storage,
    multipartUploads,
    inFlightWrites: async () => (await multipartUploads()).length,
    cleanup,
  };
}

// Parts as small as S3 allows; small pages, so every listing spans several requests.
const partOptions = { uploadPartBytes: 5 * MiB };
const s3rverSuite: SuiteOptions = {
  localFiles: false,
  presignedUrls: true,
  // s3rver cannot page: the driver asks for pages of S3's 1000.
  listPageSize: 1000,
  gaps: S3RVER_GAPS,
};

storageSuite('s3rver', async () => fixture(s3, await s3.storage(partOptions)), s3rverSuite);

/** Objects and an upload of someone else in the same bucket, outside the prefix or not keys. */
const FOREIGN = ['u/ab/cd/foreign', 'upshot/notes.txt', 'other/u/ab/cd/x'];

storageSuite(
  's3rver under a prefix, in a bucket shared with other objects',
  async () => {
    const bucket = await s3.createBucket();
    for (const Key of FOREIGN) {
      await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: 'not ours' }));
    }
    const theirs = await s3.client.send(
      new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'u/ab/cd/mp' }),
    );
    const storage = await s3.storage({ ...partOptions, bucket, prefix: 'upshot' });
    const mine = async () =>
      (await s3.multipartUploads(bucket)).filter((id) => id !== theirs.UploadId);
    return {
      storage,
      multipartUploads: mine,
      inFlightWrites: async () => (await mine()).length,
      cleanup: async () => {
        // Whatever the test did, the others' objects and upload are untouched.
        const objects = await s3.client.send(new ListObjectsV2Command({ Bucket: bucket }));
        const names = (objects.Contents ?? []).map((o) => o.Key ?? '');
        for (const name of names)
          expect(FOREIGN.includes(name) || name.startsWith('upshot/')).toBe(true);
        expect(names.filter((n) => FOREIGN.includes(n)).sort()).toEqual([...FOREIGN].sort());
        expect(await s3.multipartUploads(bucket)).toContain(theirs.UploadId);
      },
    };
  },
  s3rverSuite,
);

describe.skipIf(!fauxqsRuns)('on fauxqs (it needs node:sqlite: Node 22.5 and later)', () => {
  storageSuite(
    'fauxqs',
    async () => {
      const store = fauxqs as TestS3;
      return fixture(store, await store.storage({ ...partOptions, listPageSize: PAGE }));
    },
    {
      localFiles: false,
      presignedUrls: true,
      listPageSize: PAGE,
      // s3rver's suite covers them.
      gaps: { presigned: 'ignores response-content-* overrides, checks no signature or expiry' },
    },
  );

  // s3rver completes any parts, however small.
  it('refuses to complete parts under 5 MiB before the last (EntityTooSmall)', async () => {
    const storage = await (fauxqs as TestS3).storage();
    const key = newKey();
    const id = await storage.createMultipart(key);
    const parts = [];
    for (const index of [0, 1]) {
      const part = { index, offset: index * 10, size: 10 };
      const etag = await storage.putPart(id, key, part, Readable.from([Buffer.alloc(10)]));
      parts.push({ index, size: 10, etag });
    }
    await expect(storage.completeMultipart(id, key, parts, 20)).rejects.toMatchObject({
      name: 'EntityTooSmall',
    });
  });
});

type Sent = {
  command: string;
  headers: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
};

/** Records every request the client sends, as it goes on the wire. */
function record(client: S3Client, onSend?: (sent: Sent) => void): Sent[] {
  const sent: Sent[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const request = args.request as {
        headers?: Record<string, string>;
        query?: Record<string, unknown>;
        body?: unknown;
      };
      const entry = {
        command: String(context.commandName),
        headers: { ...request.headers },
        query: { ...request.query },
        body: request.body,
      };
      sent.push(entry);
      onSend?.(entry);
      return next(args);
    },
    { step: 'finalizeRequest', name: 'recordRequests' },
  );
  return sent;
}

describe('S3 driver', () => {
  it('streams a large body of unknown length as a multipart upload, a part at a time', async () => {
    const storage = await s3.storage({ uploadPartBytes: 5 * MiB, uploadQueueSize: 1 });
    let produced = 0;
    const producedAtPart: number[] = [];
    const sent = record(storage.client, (s) => {
      if (s.command === 'UploadPartCommand') producedAtPart.push(produced);
    });
    async function* body() {
      while (produced < 20 * MiB) {
        produced += 64 * 1024;
        yield crypto.randomBytes(64 * 1024);
      }
    }
    expect(await storage.put(newKey(), Readable.from(body()))).toEqual({ size: 20 * MiB });

    expect(sent.map((s) => s.command)).toEqual([
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'CompleteMultipartUploadCommand',
    ]);
    for (const s of sent.filter((s) => s.command === 'UploadPartCommand')) {
      expect(s.headers['content-length']).toBe(String(5 * MiB));
      expect(s.headers['transfer-encoding']).toBeUndefined();
    }
    // The first part left while most of the body was still to come: never buffered whole.
    expect(producedAtPart[0]).toBeLessThan(8 * MiB);
  });

  it('sends a body smaller than a part as one PutObject of known length', async () => {
    const storage = await s3.storage();
    const sent = record(storage.client);
    await storage.put(newKey(), Readable.from([crypto.randomBytes(1000)]));
    expect(sent.map((s) => [s.command, s.headers['content-length']])).toEqual([
      ['PutObjectCommand', '1000'],
    ]);
  });

  it('makes chunk i part i + 1, and completes with the ETags it was given, never listing parts', async () => {
    const storage = await s3.storage();
    const sent = record(storage.client);
    const key = newKey();
    const id = await storage.createMultipart(key);
    const send = (index: number, size: number, fill: number) =>
      storage.putPart(
        id,
        key,
        { index, offset: index * 5 * MiB, size },
        Readable.from([Buffer.alloc(size, fill)]),
      );
    const first = await send(1, 10, 1);
    const zero = await send(0, 5 * MiB, 2);
    const again = await send(1, 10, 3);
    expect(again).not.toBe(first);
    expect(
      sent.filter((s) => s.command === 'UploadPartCommand').map((s) => s.query.partNumber),
    ).toEqual(['2', '1', '2']);

    await storage.completeMultipart(
      id,
      key,
      [
        { index: 1, size: 10, etag: again },
        { index: 0, size: 5 * MiB, etag: zero },
      ],
      5 * MiB + 10,
    );
    const completion = sent.at(-1);
    expect(completion?.command).toBe('CompleteMultipartUploadCommand');
    // In part order, each with the ETag its last copy was answered with.
    const named = String(completion?.body)
      .split('<Part>')
      .slice(1)
      .map((part) => [
        /<PartNumber>(\d+)</.exec(part)?.[1],
        /<ETag>([^<]*)</.exec(part)?.[1]?.replace(/&quot;/g, '"'),
      ]);
    expect(named).toEqual([
      ['1', zero],
      ['2', again],
    ]);
    expect(sent.map((s) => s.command)).not.toContain('ListPartsCommand');
    expect(await storage.read(key, { start: 5 * MiB - 1, end: 5 * MiB + 9 })).toEqual(
      Buffer.concat([Buffer.alloc(1, 2), Buffer.alloc(10, 3)]),
    );
  });

  it('keeps every key under the prefix, and lists only its own', async () => {
    const bucket = await s3.createBucket();
    await s3.client.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'u/ab/cd/theirs', Body: 'x' }),
    );
    const storage = await s3.storage({ bucket, prefix: '/team/upshot/' });
    expect(storage.prefix).toBe('team/upshot/');
    const key = newKey();
    await storage.put(key, Readable.from(['hello']));
    const head = await s3.client.send(
      new HeadObjectCommand({ Bucket: bucket, Key: `team/upshot/${key}` }),
    );
    expect(head.ContentLength).toBe(5);

    const listed: string[] = [];
    for await (const o of storage.list()) listed.push(o.key);
    expect(listed).toEqual([key]);
  });

  describe('a store that stops answering', () => {
    it('fails each call without a streamed body in bounded time instead of hanging', async () => {
      // Accepts connections, reads what is sent, never answers: a store or proxy gone silent.
      const sockets = new Set<net.Socket>();
      const silent = net.createServer((socket) => {
        sockets.add(socket);
        socket.on('error', () => {});
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as net.AddressInfo;
      const storage = createS3Storage({
        endpoint: `http://127.0.0.1:${port}`,
        region: s3.region,
        bucket: 'silent',
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
        forcePathStyle: true,
        callTimeoutMs: 300,
      });
      try {
        const key = newKey();
        const calls: [string, () => Promise<unknown>][] = [
          ['size', () => storage.size(key)],
          ['get', () => storage.get(key)],
          ['delete', () => storage.delete(key)],
          ['check', () => storage.check()],
          ['list', () => count(storage.list())],
        ];
        for (const [name, call] of calls) {
          const started = Date.now();
          const outcome = await call().then(
            () => 'answered',
            (err: unknown) => err,
          );
          // The SDK's own retries included (check names the setting to look at).
          expect(String(outcome), name).toMatch(/exceeded the configured 300 ms requestTimeout/);
          expect(Date.now() - started, name).toBeLessThan(5000);
        }
        // Joining parts may take the store a while: ten times as long, then the same.
        const started = Date.now();
        const outcome = await storage.completeMultipart('id', key, [], 0).then(
          () => 'answered',
          (err: unknown) => err,
        );
        expect(String(outcome)).toMatch(/exceeded the configured 3000 ms requestTimeout/);
        expect(Date.now() - started).toBeLessThan(15_000);
      } finally {
        storage.destroy();
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    });

    it('leaves a download that is read slowly alone: the limit is on the answer, not the body', async () => {
      const storage = await s3.storage({ callTimeoutMs: 200 });
      const key = newKey();
      const data = crypto.randomBytes(4 * MiB);
      await storage.put(key, Readable.from([data]));
      const body = await storage.get(key);
      // Not read for five times the limit (a paused client), then read whole.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(data)).toBe(true);
    });
  });

  describe('check', () => {
    const base = () => ({
      endpoint: s3.endpoint,
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    });
    async function refusal(options: Parameters<typeof createS3Storage>[0]) {
      const storage = createS3Storage(options);
      try {
        return await storage.check().then(
          () => null,
          (e: unknown) => e,
        );
      } finally {
        storage.destroy();
      }
    }

    it('passes for a bucket that answers to the credentials', async () => {
      const storage = await s3.storage();
      await expect(storage.check()).resolves.toBeUndefined();
    });

    it('names S3_BUCKET when there is no such bucket', async () => {
      const err = await refusal({ ...base(), bucket: 'no-such-bucket' });
      expect(err).toBeInstanceOf(StorageConfigError);
      expect(err).toMatchObject({ setting: 'S3_BUCKET' });
      expect((err as Error).message).toMatch(/^S3_BUCKET: no bucket "no-such-bucket" at http/);
    });

    it('names S3_ENDPOINT when nothing answers there', async () => {
      const port = await new Promise<number>((resolve) => {
        const probe = net.createServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as net.AddressInfo;
          probe.close(() => resolve(port));
        });
      });
      const err = await refusal({
        ...base(),
        endpoint: `http://127.0.0.1:${port}`,
        bucket: await s3.createBucket(),
      });
      expect(err).toBeInstanceOf(StorageConfigError);
      expect(err).toMatchObject({ setting: 'S3_ENDPOINT' });
      expect((err as Error).message).toContain(`cannot reach http://127.0.0.1:${port}`);
    });

    // s3rver knows its access keys but does not verify signatures, so a wrong secret key with
    // the right access key passes here; AWS and MinIO answer 403 SignatureDoesNotMatch to it,
    // which takes the same path as this one.
    it('names the credentials when the store does not know the access key', async () => {
      const err = await refusal({
        ...base(),
        accessKeyId: 'NOT-A-KEY',
        bucket: await s3.createBucket(),
      });
      expect(err).toBeInstanceOf(StorageConfigError);
      expect(err).toMatchObject({ setting: 'S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY' });
    });
  });
});
