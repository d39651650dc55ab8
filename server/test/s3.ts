/**
 * S3 stores for tests, two independent ones from the npm registry, each over a temporary
 * directory on a free local port: s3rver (startS3) and fauxqs (startFauxqs; it keeps its state
 * in node:sqlite, so it runs on Node 22.5 and later only).
 *
 * Neither checks request signatures. A small front server before s3rver refuses presigned
 * requests S3 would refuse (a changed query, an expired link) and hands every other request to
 * s3rver untouched: the tests of presigned links need a store that refuses a link its holder
 * changed, and s3rver checks only that the access key exists. Nothing else answers for s3rver;
 * what it lacks or gets wrong is listed in S3RVER_GAPS, and the tests that need it run on fauxqs.
 */
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import http from 'node:http';
import { isBuiltin } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { createS3Storage, type S3Storage, type S3StorageOptions } from '../src/storage/s3.ts';

export type TestS3 = {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The store's directory (s3rver: <dir>/<bucket>/<key>._S3rver_object, and its uploads). */
  dir: string;
  /** Makes a new empty bucket and answers its name. */
  createBucket(): Promise<string>;
  /** A driver on `bucket` (a new one unless given), with these options on top. */
  storage(options?: Partial<S3StorageOptions>): Promise<S3Storage>;
  /** A plain SDK client on the server, for looking behind the driver. */
  client: S3Client;
  /**
   * The ids of the multipart uploads in flight in `bucket`, read from the store's directory
   * (neither store answers ListMultipartUploads).
   */
  multipartUploads(bucket: string): Promise<string[]>;
  close(): Promise<void>;
};

/** What s3rver 3.7 lacks or gets wrong: the tests that need it run on fauxqs only. */
export const S3RVER_GAPS = {
  /** DELETE ?uploadId= answers 405 MethodNotAllowed; it accepts a part for any upload id. */
  abort: 'no AbortMultipartUpload',
  /** `bytes=0-0` reads end 0 as "to the end". */
  firstByte: 'answers Range: bytes=0-0 with the whole object (a presigned URL gets it all)',
  /** Its continuation tokens use DES, which Node's OpenSSL 3 refuses. */
  paging: 'cannot page ListObjectsV2 on Node 17 and later',
};

/** fauxqs keeps its state in node:sqlite, which Node has from 22.5 on. */
export const fauxqsRuns = isBuiltin('node:sqlite');

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

function refuse(res: http.ServerResponse, code: string, message: string) {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`;
  res.writeHead(403, {
    'Content-Type': 'application/xml',
    'Content-Length': Buffer.byteLength(xml),
    'x-amz-error-code': code,
  });
  res.end(xml);
}

/** s3rver's one account: access key -> secret key. */
const SECRET_KEYS: Record<string, string> = { S3RVER: 'S3RVER' };

/** RFC 3986 percent-encoding, as SigV4 canonical query strings use it. */
const uriEncode = (s: string) =>
  encodeURIComponent(s).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
const hmac = (key: string | Buffer, data: string) =>
  crypto.createHmac('sha256', key).update(data, 'utf8').digest();

/**
 * Why S3 would refuse a presigned (SigV4 query-authenticated) request: expired, or a signature
 * that does not match what was asked (any query parameter or signed header changed). Null when
 * it is not one, or S3 would take it; malformed parameters and unknown keys are left to s3rver.
 */
function presignedRefusal(req: http.IncomingMessage): { code: string; message: string } | null {
  const raw = req.url ?? '/';
  const url = new URL(raw, 'http://s3');
  const q = url.searchParams;
  if (q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return null;
  const [accessKey = '', ...scope] = (q.get('X-Amz-Credential') ?? '').split('/');
  const secret = SECRET_KEYS[accessKey];
  const amzDate = q.get('X-Amz-Date') ?? '';
  const signedAt = Date.parse(
    amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'),
  );
  const expires = Number(q.get('X-Amz-Expires'));
  const signedHeaders = q.get('X-Amz-SignedHeaders');
  const provided = q.get('X-Amz-Signature') ?? '';
  if (!secret || scope.length !== 4 || Number.isNaN(signedAt) || !signedHeaders) return null;
  if (!Number.isFinite(expires) || Date.now() > signedAt + expires * 1000) {
    return { code: 'AccessDenied', message: 'Request has expired' };
  }
  const query = [...q.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a !== b ? (a < b ? -1 : 1) : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headers = signedHeaders
    .split(';')
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonicalRequest = [
    req.method,
    raw.split('?')[0], // S3 signs the path as sent, without encoding it again
    query,
    headers,
    signedHeaders,
    q.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    amzDate,
    scope.join('/'),
    crypto.createHash('sha256').update(canonicalRequest, 'utf8').digest('hex'),
  ].join('\n');
  const key = scope.reduce<Buffer | string>((k, part) => hmac(k, part), `AWS4${secret}`);
  const expected = hmac(key, stringToSign).toString('hex');
  if (
    provided.length === expected.length &&
    crypto.timingSafeEqual(Buffer.from(provided), Buffer.from(expected))
  ) {
    return null;
  }
  return {
    code: 'SignatureDoesNotMatch',
    message:
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
  };
}

type Base = Pick<TestS3, 'endpoint' | 'region' | 'accessKeyId' | 'secretAccessKey' | 'dir'>;

/** What both stores share, given how to reach one and how to see its multipart uploads. */
function testStore(
  base: Base,
  multipartUploads: (bucket: string) => Promise<string[]>,
  stop: () => Promise<void>,
): TestS3 {
  const connection = {
    endpoint: base.endpoint,
    region: base.region,
    accessKeyId: base.accessKeyId,
    secretAccessKey: base.secretAccessKey,
    forcePathStyle: true,
  };
  const client = new S3Client({
    ...connection,
    credentials: { accessKeyId: base.accessKeyId, secretAccessKey: base.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const drivers: S3Storage[] = [];

  async function createBucket() {
    const name = `b-${crypto.randomBytes(6).toString('hex')}`;
    await client.send(new CreateBucketCommand({ Bucket: name }));
    return name;
  }

  return {
    ...base,
    client,
    createBucket,
    multipartUploads,
    async storage(options = {}) {
      const driver = createS3Storage({
        ...connection,
        ...options,
        bucket: options.bucket ?? (await createBucket()),
      });
      drivers.push(driver);
      return driver;
    },
    async close() {
      for (const d of drivers) d.destroy();
      client.destroy();
      await stop();
    },
  };
}

const listDir = (dir: string) => fsp.readdir(dir).catch(() => [] as string[]);

/** s3rver behind the presigned-signature check, on 127.0.0.1. */
export async function startS3(): Promise<TestS3> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'upshot-s3-'));
  const s3rver = new S3rver({ directory: dir, silent: true });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const server = http.createServer((req, res) => {
    const refusal = presignedRefusal(req);
    if (!refusal) return handle(req, res);
    req.on('end', () => refuse(res, refusal.code, refusal.message));
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return testStore(
    {
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      dir,
    },
    // An upload in flight is a folder named after its id, holding its key and parts.
    (bucket) => listDir(path.join(dir, bucket, '._S3rver_uploads')),
    async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fsp.rm(dir, { recursive: true, force: true });
    },
  );
}

/** fauxqs with its objects in files, on 127.0.0.1 (only where fauxqsRuns). */
export async function startFauxqs(): Promise<TestS3> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'upshot-fauxqs-'));
  const { startFauxqs: start } = await import('fauxqs');
  const server = await start({ port: 0, host: '127.0.0.1', logger: false, s3StorageDir: dir });
  const uploadsDir = path.join(dir, '_multipart');
  return testStore(
    {
      endpoint: `http://127.0.0.1:${server.port}`,
      region: 'us-east-1',
      accessKeyId: 'test',
      secretAccessKey: 'test',
      dir,
    },
    // An upload in flight is a folder named after its id; its .upload.json names its bucket.
    async (bucket) => {
      const ids: string[] = [];
      for (const id of await listDir(uploadsDir)) {
        const meta = await fsp
          .readFile(path.join(uploadsDir, id, '.upload.json'), 'utf8')
          .catch(() => null);
        if (meta && (JSON.parse(meta) as { bucket?: string }).bucket === bucket) ids.push(id);
      }
      return ids;
    },
    async () => {
      await server.stop();
      await fsp.rm(dir, { recursive: true, force: true });
    },
  );
}
