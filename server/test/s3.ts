/**
 * A real S3 protocol server for tests: s3rver over a temporary directory on a free local port.
 *
 * s3rver 3.7 lacks what the chunked uploads and the orphan sweep use: AbortMultipartUpload,
 * ListMultipartUploads and ListParts; it stores a part for an upload id it never issued,
 * answers `Range: bytes=0-0` with the whole object, and fails ListObjectsV2 past one page
 * (its continuation tokens use DES, which Node's OpenSSL 3 refuses). A small front server answers those
 * requests itself, on s3rver's own upload folders, as the S3 API reference describes them
 * (NoSuchUpload, EntityTooSmall for a part under 5 MiB but the last, paging markers), and hands
 * every other request to s3rver. s3rver checks that the access key exists (S3RVER) but not
 * the SigV4 signature, so a wrong secret key is accepted in an Authorization header.
 *
 * Presigned URLs (SigV4 query authentication): s3rver honours their expiry and the
 * response-content-* overrides, but it does not check their signature either, so a URL whose
 * query was changed would still be served. The front server checks presigned requests' signature
 * and expiry itself, as S3 does, before anything else answers them (its `Range: bytes=0-0`
 * answer included, which also applies the overrides).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { createS3Storage, type S3Storage, type S3StorageOptions } from '../src/storage/s3.ts';

export type TestS3 = {
  endpoint: string;
  port: number;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** s3rver's directory: <dir>/<bucket>/... */
  dir: string;
  /** Makes a new empty bucket and answers its name. */
  createBucket(): Promise<string>;
  /** A driver on `bucket` (a new one unless given), with these options on top. */
  storage(options?: Partial<S3StorageOptions>): Promise<S3Storage>;
  /** A plain SDK client on the server, for looking behind the driver. */
  client: S3Client;
  close(): Promise<void>;
};

const MIN_PART_BYTES = 5 * 1024 * 1024;
const UPLOAD_ID = /^[a-f0-9]{32}$/;

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
const tag = (name: string, value: string | number | boolean) =>
  `<${name}>${xmlEscape(String(value))}</${name}>`;

function sendXml(res: http.ServerResponse, status: number, body: string) {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
  res.writeHead(status, {
    'Content-Type': 'application/xml',
    'Content-Length': Buffer.byteLength(xml),
  });
  res.end(xml);
}

function sendError(res: http.ServerResponse, status: number, code: string, message: string) {
  res.setHeader('x-amz-error-code', code);
  sendXml(res, status, `<Error>${tag('Code', code)}${tag('Message', message)}</Error>`);
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

/** Answers once the request body has been read (and dropped), so the connection stays usable. */
function afterBody(req: http.IncomingMessage, answer: () => void) {
  req.on('end', answer);
  req.resume();
}

/** The S3 operations s3rver lacks, over its folders; false: not one of them. */
async function extension(
  dir: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://s3');
  const match = /^\/([^/]+)(?:\/(.*))?$/.exec(url.pathname);
  if (!match) return false;
  const bucket = decodeURIComponent(match[1] as string);
  const key = match[2] ? match[2].split('/').map(decodeURIComponent).join('/') : undefined;
  const q = url.searchParams;
  const uploadsDir = path.join(dir, bucket, '._S3rver_uploads');
  const uploadId = q.get('uploadId');
  const uploadDir = uploadId && UPLOAD_ID.test(uploadId) ? path.join(uploadsDir, uploadId) : null;
  const noSuchUpload = () =>
    afterBody(req, () =>
      sendError(res, 404, 'NoSuchUpload', 'The specified upload does not exist.'),
    );
  const uploadExists = () => uploadDir !== null && fs.existsSync(path.join(uploadDir, 'key'));

  // ListMultipartUploads: GET /bucket?uploads
  if (req.method === 'GET' && !key && q.has('uploads')) {
    const prefix = q.get('prefix') ?? '';
    const keyMarker = q.get('key-marker') ?? '';
    const idMarker = q.get('upload-id-marker') ?? '';
    const max = Number(q.get('max-uploads') ?? 1000);
    const all: { key: string; id: string; initiated: Date }[] = [];
    for (const id of await fsp.readdir(uploadsDir).catch(() => [] as string[])) {
      const keyFile = path.join(uploadsDir, id, 'key');
      const stat = await fsp.stat(keyFile).catch(() => null);
      if (!stat) continue;
      all.push({ key: await fsp.readFile(keyFile, 'utf8'), id, initiated: stat.mtime });
    }
    all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : 1));
    const after = all.filter(
      (u) =>
        u.key.startsWith(prefix) &&
        (u.key > keyMarker || (idMarker !== '' && u.key === keyMarker && u.id > idMarker)),
    );
    const page = after.slice(0, max);
    const truncated = after.length > page.length;
    const last = page.at(-1);
    sendXml(
      res,
      200,
      '<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
        tag('Bucket', bucket) +
        tag('KeyMarker', keyMarker) +
        tag('UploadIdMarker', idMarker) +
        (truncated && last
          ? tag('NextKeyMarker', last.key) + tag('NextUploadIdMarker', last.id)
          : '') +
        tag('Prefix', prefix) +
        tag('MaxUploads', max) +
        tag('IsTruncated', truncated) +
        page
          .map(
            (u) =>
              `<Upload>${tag('Key', u.key)}${tag('UploadId', u.id)}${tag('Initiated', u.initiated.toISOString())}${tag('StorageClass', 'STANDARD')}</Upload>`,
          )
          .join('') +
        '</ListMultipartUploadsResult>',
    );
    return true;
  }

  // ListObjectsV2: s3rver makes its continuation tokens with DES, which Node 17+ refuses.
  if (req.method === 'GET' && !key && q.get('list-type') === '2' && !q.has('delimiter')) {
    const prefix = q.get('prefix') ?? '';
    const token = q.get('continuation-token');
    const startAfter = token
      ? Buffer.from(token, 'base64url').toString()
      : (q.get('start-after') ?? '');
    const max = Math.min(1000, Number(q.get('max-keys') ?? 1000));
    const bucketDir = path.join(dir, bucket);
    if (!fs.existsSync(bucketDir)) return false; // s3rver answers NoSuchBucket
    const matching = (await objectsIn(bucketDir)).filter(
      (o) => o.key.startsWith(prefix) && o.key > startAfter,
    );
    const page = matching.slice(0, max);
    const truncated = matching.length > page.length;
    const last = page.at(-1);
    sendXml(
      res,
      200,
      '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
        tag('Name', bucket) +
        tag('Prefix', prefix) +
        (token ? tag('ContinuationToken', token) : '') +
        (truncated && last
          ? tag('NextContinuationToken', Buffer.from(last.key).toString('base64url'))
          : '') +
        tag('KeyCount', page.length) +
        tag('MaxKeys', max) +
        tag('IsTruncated', truncated) +
        page
          .map(
            (o) =>
              `<Contents>${tag('Key', o.key)}${tag('LastModified', o.modified.toISOString())}${tag('ETag', `"${o.md5}"`)}${tag('Size', o.size)}${tag('StorageClass', 'STANDARD')}</Contents>`,
          )
          .join('') +
        '</ListBucketResult>',
    );
    return true;
  }

  if (!key || uploadId === null) {
    // GetObject `Range: bytes=0-0`: s3rver reads end 0 as "to the end".
    if (req.method === 'GET' && key && req.headers.range === 'bytes=0-0') {
      const parts = key.split('/');
      const file = path.join(dir, bucket, ...parts.slice(0, -1), `${parts.at(-1)}${OBJECT_SUFFIX}`);
      const stat = await fsp.stat(file).catch(() => null);
      if (!stat) return false; // s3rver answers NoSuchKey
      if (stat.size === 0) {
        sendError(res, 416, 'InvalidRange', 'The requested range is not satisfiable');
        return true;
      }
      const fh = await fsp.open(file, 'r');
      const byte = Buffer.alloc(1);
      await fh.read(byte, 0, 1, 0).finally(() => fh.close());
      // A presigned URL's response-content-* overrides, as s3rver applies them.
      const overrides: Record<string, string> = {};
      for (const [name, value] of q) {
        if (/^response-content-(type|disposition)$/.test(name)) overrides[name.slice(9)] = value;
      }
      res.writeHead(206, {
        ...overrides,
        'Content-Range': `bytes 0-0/${stat.size}`,
        'Content-Length': 1,
        'Accept-Ranges': 'bytes',
      });
      res.end(byte);
      return true;
    }
    return false;
  }

  // AbortMultipartUpload: DELETE /bucket/key?uploadId=
  if (req.method === 'DELETE') {
    if (!uploadExists()) {
      noSuchUpload();
      return true;
    }
    await fsp.rm(uploadDir as string, { recursive: true, force: true });
    afterBody(req, () => {
      res.writeHead(204);
      res.end();
    });
    return true;
  }

  // ListParts: GET /bucket/key?uploadId=
  if (req.method === 'GET') {
    if (!uploadExists()) {
      noSuchUpload();
      return true;
    }
    const marker = Number(q.get('part-number-marker') ?? 0);
    const max = Number(q.get('max-parts') ?? 1000);
    const parts = (await partsIn(uploadDir as string)).filter((p) => p.number > marker);
    const page = parts.slice(0, max);
    const truncated = parts.length > page.length;
    sendXml(
      res,
      200,
      '<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
        tag('Bucket', bucket) +
        tag('Key', key) +
        tag('UploadId', uploadId) +
        tag('PartNumberMarker', marker) +
        (truncated ? tag('NextPartNumberMarker', page.at(-1)?.number ?? marker) : '') +
        tag('MaxParts', max) +
        tag('IsTruncated', truncated) +
        page
          .map(
            (p) =>
              `<Part>${tag('PartNumber', p.number)}${tag('LastModified', p.modified.toISOString())}${tag('ETag', `"${p.md5}"`)}${tag('Size', p.size)}</Part>`,
          )
          .join('') +
        '</ListPartsResult>',
    );
    return true;
  }

  // UploadPart and CompleteMultipartUpload need an upload S3 issued and has not ended.
  if ((req.method === 'PUT' || req.method === 'POST') && !uploadExists()) {
    noSuchUpload();
    return true;
  }
  if (req.method === 'POST') {
    const parts = await partsIn(uploadDir as string);
    const small = parts.slice(0, -1).find((p) => p.size < MIN_PART_BYTES);
    if (small) {
      afterBody(req, () =>
        sendError(
          res,
          400,
          'EntityTooSmall',
          `Your proposed upload is smaller than the minimum allowed size (part ${small.number})`,
        ),
      );
      return true;
    }
  }
  return false;
}

const OBJECT_SUFFIX = '._S3rver_object';

/** Every object of a bucket folder, sorted by key as S3 lists them. */
async function objectsIn(bucketDir: string) {
  const objects: { key: string; size: number; md5: string; modified: Date }[] = [];
  for (const entry of await fsp.readdir(bucketDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(OBJECT_SUFFIX)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const key = path.relative(bucketDir, file).slice(0, -OBJECT_SUFFIX.length);
    if (key.startsWith('._S3rver_')) continue;
    const stat = await fsp.stat(file);
    const md5 = await fsp.readFile(`${file}.md5`, 'utf8').catch(() => '');
    objects.push({
      key: key.split(path.sep).join('/'),
      size: stat.size,
      md5,
      modified: stat.mtime,
    });
  }
  return objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

async function partsIn(uploadDir: string) {
  const parts: { number: number; size: number; md5: string; modified: Date }[] = [];
  for (const name of await fsp.readdir(uploadDir)) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await fsp.stat(path.join(uploadDir, name));
    const md5 = await fsp.readFile(path.join(uploadDir, `${name}.md5`), 'utf8').catch(() => '');
    parts.push({ number: Number(name), size: stat.size, md5, modified: stat.mtime });
  }
  return parts.sort((a, b) => a.number - b.number);
}

export async function startS3(): Promise<TestS3> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'upshot-s3-'));
  const s3rver = new S3rver({ directory: dir, silent: true });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const server = http.createServer((req, res) => {
    const refusal = presignedRefusal(req);
    if (refusal) {
      afterBody(req, () => sendError(res, 403, refusal.code, refusal.message));
      return;
    }
    extension(dir, req, res).then(
      (handled) => {
        if (!handled) handle(req, res);
      },
      (err: unknown) => {
        if (!res.headersSent) sendError(res, 500, 'InternalError', String(err));
        else res.destroy();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const base = {
    endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  const client = new S3Client({
    ...base,
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
    port,
    dir,
    client,
    createBucket,
    async storage(options = {}) {
      const driver = createS3Storage({
        ...base,
        ...options,
        bucket: options.bucket ?? (await createBucket()),
      });
      drivers.push(driver);
      return driver;
    },
    async close() {
      for (const d of drivers) d.destroy();
      client.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}
