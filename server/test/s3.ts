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
 * the SigV4 signature, so a wrong secret key is accepted.
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
      res.writeHead(206, {
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
