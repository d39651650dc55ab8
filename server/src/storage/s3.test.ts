import crypto from 'node:crypto';
import net from 'node:net';
import { Readable } from 'node:stream';
import {
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../../test/s3.ts';
import { createS3Storage, StorageConfigError, type S3Storage } from './s3.ts';
import { storageSuite, type StorageFixture } from './storage-suite.ts';
import { objectKey } from './storage.ts';

const MiB = 1024 * 1024;
const PAGE = 3;

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.close();
});

async function count(it: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const item of it) if (item) n += 1;
  return n;
}

function fixture(storage: S3Storage, cleanup?: () => Promise<void>): StorageFixture {
  // A whole-object write in flight past its first part is a multipart upload.
  return { storage, inFlightWrites: () => count(storage.listMultipart()), cleanup };
}

// Small pages, so every listing spans several requests; parts as small as S3 allows.
const testOptions = { listPageSize: PAGE, uploadPartBytes: 5 * MiB };

storageSuite('S3', async () => fixture(await s3.storage(testOptions)), {
  localFiles: false,
  listPageSize: PAGE,
  presignedUrls: true,
});

/** Objects and an upload of someone else in the same bucket, outside the prefix or not keys. */
const FOREIGN = ['u/ab/cd/foreign', 'upshot/notes.txt', 'other/u/ab/cd/x'];

storageSuite(
  'S3 under a prefix, in a bucket shared with other objects',
  async () => {
    const bucket = await s3.createBucket();
    for (const Key of FOREIGN) {
      await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: 'not ours' }));
    }
    await s3.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'u/ab/cd/mp' }));
    const storage = await s3.storage({ ...testOptions, bucket, prefix: 'upshot' });
    return fixture(storage, async () => {
      // Whatever the test did, the others' objects and upload are untouched.
      const objects = await s3.client.send(new ListObjectsV2Command({ Bucket: bucket }));
      const names = (objects.Contents ?? []).map((o) => o.Key ?? '');
      for (const name of names)
        expect(FOREIGN.includes(name) || name.startsWith('upshot/')).toBe(true);
      expect(names.filter((n) => FOREIGN.includes(n)).sort()).toEqual([...FOREIGN].sort());
      const uploads = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
      expect((uploads.Uploads ?? []).map((u) => u.Key)).toContain('u/ab/cd/mp');
    });
  },
  { localFiles: false, listPageSize: PAGE, presignedUrls: true },
);

type Sent = { command: string; headers: Record<string, string>; query: Record<string, unknown> };

/** Records every request the client sends, as it goes on the wire. */
function record(client: S3Client, onSend?: (sent: Sent) => void): Sent[] {
  const sent: Sent[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const request = args.request as {
        headers?: Record<string, string>;
        query?: Record<string, unknown>;
      };
      const entry = {
        command: String(context.commandName),
        headers: { ...request.headers },
        query: { ...request.query },
      };
      sent.push(entry);
      onSend?.(entry);
      return next(args);
    },
    { step: 'finalizeRequest', name: 'recordRequests' },
  );
  return sent;
}

const newKey = () => objectKey('u', crypto.randomBytes(10).toString('hex'));

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

  it('makes chunk i part i + 1, replaces a part sent again, and completes the parts in order', async () => {
    const storage = await s3.storage();
    const sent = record(storage.client);
    const key = newKey();
    const id = await storage.createMultipart(key);
    await storage.putPart(
      id,
      key,
      { index: 1, offset: 5 * MiB, size: 10 },
      Readable.from([Buffer.alloc(10, 1)]),
    );
    await storage.putPart(
      id,
      key,
      { index: 0, offset: 0, size: 5 * MiB },
      Readable.from([Buffer.alloc(5 * MiB, 2)]),
    );
    await storage.putPart(
      id,
      key,
      { index: 1, offset: 5 * MiB, size: 10 },
      Readable.from([Buffer.alloc(10, 3)]),
    );
    const parts = await s3.client.send(
      new ListPartsCommand({ Bucket: storage.bucket, Key: key, UploadId: id }),
    );
    expect((parts.Parts ?? []).map((p) => [p.PartNumber, p.Size])).toEqual([
      [1, 5 * MiB],
      [2, 10],
    ]);
    expect(
      sent.filter((s) => s.command === 'UploadPartCommand').map((s) => s.query.partNumber),
    ).toEqual(['2', '1', '2']);

    await storage.completeMultipart(id, key, 5 * MiB + 10);
    expect(await storage.read(key, { start: 5 * MiB - 1, end: 5 * MiB + 9 })).toEqual(
      Buffer.concat([Buffer.alloc(1, 2), Buffer.alloc(10, 3)]),
    );
  });

  it('cannot complete parts under 5 MiB before the last: S3 refuses them (EntityTooSmall)', async () => {
    const storage = await s3.storage();
    const key = newKey();
    const id = await storage.createMultipart(key);
    for (const index of [0, 1]) {
      await storage.putPart(
        id,
        key,
        { index, offset: index * 10, size: 10 },
        Readable.from([Buffer.alloc(10)]),
      );
    }
    await expect(storage.completeMultipart(id, key, 20)).rejects.toMatchObject({
      name: 'EntityTooSmall',
    });
  });

  it('keeps every key under the prefix, and lists and sweeps only its own', async () => {
    const bucket = await s3.createBucket();
    await s3.client.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'u/ab/cd/theirs', Body: 'x' }),
    );
    const other = await s3.client.send(
      new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'u/ab/cd/theirs2' }),
    );
    const storage = await s3.storage({ bucket, prefix: '/team/upshot/' });
    expect(storage.prefix).toBe('team/upshot/');
    const key = newKey();
    await storage.put(key, Readable.from(['hello']));
    const head = await s3.client.send(
      new HeadObjectCommand({ Bucket: bucket, Key: `team/upshot/${key}` }),
    );
    expect(head.ContentLength).toBe(5);
    const mine = await storage.createMultipart(newKey());

    const listed: string[] = [];
    for await (const o of storage.list()) listed.push(o.key);
    expect(listed).toEqual([key]);
    const uploads: { multipartId: string }[] = [];
    for await (const m of storage.listMultipart()) uploads.push(m);
    expect(uploads.map((m) => m.multipartId)).toEqual([mine]);
    // An id of an upload outside the prefix is not found there, so it is left alone.
    await storage.abortMultipart(other.UploadId as string, '');
    const theirs = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
    expect((theirs.Uploads ?? []).map((u) => u.UploadId)).toContain(other.UploadId);
  });

  it('listMultipart also gives each upload its key, and abortMultipart takes it', async () => {
    const storage = await s3.storage();
    const key = newKey();
    const id = await storage.createMultipart(key);
    const listed: unknown[] = [];
    for await (const m of storage.listMultipart()) listed.push(m);
    expect(listed).toEqual([{ multipartId: id, key, modifiedAt: expect.any(Date) }]);
    await storage.abortMultipart(id, key);
    expect(await count(storage.listMultipart())).toBe(0);
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
          ['completeMultipart', () => storage.completeMultipart('id', key, 1)],
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
