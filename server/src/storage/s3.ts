/**
 * S3 driver (AWS S3 or any S3-compatible store): whole-object writes stream through
 * lib-storage's Upload, chunked uploads are S3 multipart uploads, and every key lives under an
 * optional prefix so a shared bucket's other objects are never listed or swept. It never lists
 * parts or multipart uploads (ListParts, ListMultipartUploads), which some stores lack: the
 * caller keeps each part's ETag, and the bucket's lifecycle rule aborts what a crash left.
 */
import { pipeline, Readable, Transform } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertValidKey, StorageSizeError, type ByteRange, type Storage } from './storage.ts';

/** The first `length` bytes of a stream; the rest is never read (the source is destroyed). */
function upTo(source: Readable, length: number): Readable {
  return Readable.from(
    (async function* () {
      let left = length;
      // Leaving the loop destroys the source; destroying the result leaves the loop.
      for await (const chunk of source) {
        const part = (chunk as Buffer).subarray(0, left);
        left -= part.length;
        yield part;
        if (left <= 0) break;
      }
    })(),
    { objectMode: false },
  );
}

export type S3StorageOptions = {
  /** Empty or undefined for AWS itself; the store's URL otherwise (MinIO, R2, B2, ...). */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (`endpoint/bucket/key`), which most self-hosted stores need. */
  forcePathStyle?: boolean;
  /** Every key is stored under it (`upshot/` -> `upshot/u/ab/cd/<id>`). */
  prefix?: string;
  /** Keys asked for per listing request (S3's maximum, 1000, unless a test pages). */
  listPageSize?: number;
  /** Part size of whole-object writes; bodies below it go up as one PutObject of known length. */
  uploadPartBytes?: number;
  /** Parts of one whole-object write in flight at once (each holds uploadPartBytes). */
  uploadQueueSize?: number;
  /**
   * How long a call without a streamed body (a listing, a HEAD, a delete, a download's first
   * answer) may wait for the store's answer; CompleteMultipartUpload gets ten times as long.
   */
  callTimeoutMs?: number;
  /** Where the SDK's own warnings go (by default nowhere). */
  logger?: {
    debug(...a: unknown[]): void;
    info(...a: unknown[]): void;
    warn(...a: unknown[]): void;
    error(...a: unknown[]): void;
  };
};

export type S3Storage = Storage & {
  readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;
  /** Closes the client's sockets. */
  destroy(): void;
};

/** The start-up check failed; `setting` is the environment variable to look at. */
export class StorageConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`);
  }
}

/** S3 numbers parts 1..10000. */
const MAX_PARTS = 10_000;
const DEFAULT_PART_BYTES = 8 * 1024 * 1024;
const DEFAULT_QUEUE_SIZE = 4;
/** How long a call without a streamed body waits for its answer (S3StorageOptions.callTimeoutMs). */
const DEFAULT_CALL_TIMEOUT_MS = 60_000;

const silent = { debug() {}, info() {}, warn() {}, error() {} };

type SdkError = { name?: string; $metadata?: { httpStatusCode?: number } };
const nameOf = (err: unknown) => (err as SdkError | null)?.name;
const statusOf = (err: unknown) => (err as SdkError | null)?.$metadata?.httpStatusCode;
const isMissingObject = (err: unknown) => nameOf(err) === 'NoSuchKey' || nameOf(err) === 'NotFound';
const isMissingUpload = (err: unknown) => nameOf(err) === 'NoSuchUpload';
const isBadRange = (err: unknown) => nameOf(err) === 'InvalidRange' || statusOf(err) === 416;

/** What the local driver throws for a missing file, which callers test for (`code`). */
function missing(what: string): Error {
  return Object.assign(new Error(`${what} not found`), { code: 'ENOENT' });
}

function normalizePrefix(prefix: string | undefined): string {
  const p = (prefix ?? '').trim().replace(/^\/+|\/+$/g, '');
  return p === '' ? '' : `${p}/`;
}

function isValidKey(key: string): boolean {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

/**
 * Passes `body` through, counting bytes: it fails past `limit`, and with `exact` also when
 * the body ends short of it. Any failure of the body or the count aborts `signal`, so a request
 * that streams it stops at once instead of waiting for bytes that will never come.
 */
function metered(
  body: Readable,
  limit: number,
  tooLarge: () => Error,
  exact?: (n: number) => Error,
) {
  let bytes = 0;
  let sizeError: Error | null = null;
  let streamError: unknown = null;
  const controller = new AbortController();
  const stream = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      if (bytes > limit) return cb((sizeError = tooLarge()));
      cb(null, chunk);
    },
    flush(cb) {
      if (exact && bytes !== limit) return cb((sizeError = exact(bytes)));
      cb();
    },
  });
  pipeline(body, stream, (err) => {
    if (!err) return;
    streamError = err;
    controller.abort();
  });
  return {
    stream,
    signal: controller.signal,
    bytes: () => bytes,
    /** Why the body stopped: a size error, else the body's own error; null when it did not. */
    failure: () => sizeError ?? streamError,
  };
}

export function createS3Storage(options: S3StorageOptions): S3Storage {
  const Bucket = options.bucket;
  const prefix = normalizePrefix(options.prefix);
  const pageSize = options.listPageSize ?? 1000;
  const partSize = options.uploadPartBytes ?? DEFAULT_PART_BYTES;
  const queueSize = options.uploadQueueSize ?? DEFAULT_QUEUE_SIZE;
  const endpoint = options.endpoint?.trim() || undefined;
  const client = new S3Client({
    region: options.region,
    endpoint,
    forcePathStyle: options.forcePathStyle ?? false,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // No checksum trailers: many S3-compatible stores (and s3rver) refuse them, and bodies of
    // known length are what every store accepts.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that does not connect, or does not answer a call, fails it in bounded time
    // (the calls' limits are given per call: a part streamed from a slow client has none).
    requestHandler: { connectionTimeout: 10_000, throwOnRequestTimeout: true },
    logger: options.logger ?? silent,
  });

  /**
   * A store that accepts a call and never answers it would hold a download, the sweep or a
   * completion (and its session's claim) for good: calls whose request has no streamed body
   * wait this long for the answer's head (a download's body then streams without a limit).
   */
  const timed = { requestTimeout: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS };
  const completeTimed = { requestTimeout: timed.requestTimeout * 10 };

  const objectName = (key: string) => {
    assertValidKey(key);
    return prefix + key;
  };
  /** The storage key of an S3 object name, or null for what is not ours. */
  const keyOf = (name: string | undefined) => {
    if (!name?.startsWith(prefix)) return null;
    const key = name.slice(prefix.length);
    return isValidKey(key) ? key : null;
  };

  async function sizeOf(key: string): Promise<number | null> {
    try {
      const head = await client.send(
        new HeadObjectCommand({ Bucket, Key: objectName(key) }),
        timed,
      );
      return head.ContentLength ?? 0;
    } catch (err) {
      if (isMissingObject(err)) return null;
      throw err;
    }
  }

  /** Opens an object or a range of it; null when the range starts past its end. */
  async function open(key: string, range?: ByteRange) {
    const Key = objectName(key);
    // An empty object read whole asks for no bytes: there is no Range header for that.
    if (range && range.end < range.start) {
      if ((await sizeOf(key)) === null) throw missing(`object ${key}`);
      return null;
    }
    try {
      const res = await client.send(
        new GetObjectCommand({
          Bucket,
          Key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
        timed,
      );
      const body = res.Body ?? null;
      if (!range || !(body instanceof Readable)) return body;
      // A store may send more than asked (s3rver answers `bytes=0-0` with the whole object):
      // what was asked for is cut from what it sent, if that starts where it was asked to.
      const sent = /^bytes (\d+)-(\d+)\//.exec(res.ContentRange ?? '');
      const first = sent ? Number(sent[1]) : 0;
      const last = sent ? Number(sent[2]) : Number(res.ContentLength ?? 0) - 1;
      if (last <= range.end) return body;
      if (first !== range.start) {
        body.destroy();
        throw new Error(`the store sent other bytes than ${range.start}-${range.end} of ${key}`);
      }
      return upTo(body, range.end - range.start + 1);
    } catch (err) {
      if (isMissingObject(err)) throw missing(`object ${key}`);
      if (range && isBadRange(err)) return null;
      throw err;
    }
  }

  async function abortUpload(UploadId: string, Key: string) {
    try {
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }), timed);
    } catch (err) {
      if (!isMissingUpload(err)) throw err;
    }
  }

  return {
    client,
    bucket: Bucket,
    prefix,

    async put(key, body, options = {}) {
      const Key = objectName(key);
      const meter = metered(
        body,
        options.maxBytes ?? Number.MAX_SAFE_INTEGER,
        () => new StorageSizeError('File is larger than allowed', 'too_large'),
      );
      // A body shorter than one part goes up as one PutObject of known length; a longer one
      // as a multipart upload, a part at a time, so at most queueSize parts are held.
      const upload = new Upload({
        client,
        params: { Bucket, Key, Body: meter.stream },
        partSize,
        queueSize,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
        return { size: meter.bytes() };
      } catch (err) {
        const failure = meter.failure();
        meter.stream.destroy();
        // Upload aborts its multipart upload on failure; again here in case that failed too.
        // The key is the server's own fresh id, so nothing else of value lives there.
        if (upload.uploadId) await abortUpload(upload.uploadId, Key).catch(() => undefined);
        await client.send(new DeleteObjectCommand({ Bucket, Key }), timed).catch(() => undefined);
        // The body's own failure is why (what failed after it, an abort included, is not).
        throw failure ?? err;
      }
    },

    async get(key, range) {
      const body = await open(key, range);
      if (body === null) return Readable.from([]);
      if (!(body instanceof Readable)) throw new Error('S3 answered a body that is not a stream');
      return body;
    },

    async read(key, range) {
      const body = await open(key, range);
      if (body === null) return Buffer.alloc(0);
      if (!(body instanceof Readable)) throw new Error('S3 answered a body that is not a stream');
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },

    size: sizeOf,

    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: objectName(key) }), timed);
      } catch (err) {
        if (!isMissingObject(err)) throw err;
      }
    },

    async *list() {
      let ContinuationToken: string | undefined;
      for (;;) {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket,
            Prefix: prefix || undefined,
            ContinuationToken,
            MaxKeys: pageSize,
          }),
          timed,
        );
        for (const o of page.Contents ?? []) {
          const key = keyOf(o.Key);
          if (key) yield { key, modifiedAt: o.LastModified ?? new Date(0) };
        }
        if (!page.IsTruncated || !page.NextContinuationToken) return;
        ContinuationToken = page.NextContinuationToken;
      }
    },

    async createMultipart(key) {
      const res = await client.send(
        new CreateMultipartUploadCommand({ Bucket, Key: objectName(key) }),
        timed,
      );
      if (!res.UploadId) throw new Error('S3 answered CreateMultipartUpload without an UploadId');
      return res.UploadId;
    },

    async putPart(multipartId, key, part, body) {
      const Key = objectName(key);
      if (part.index < 0 || part.index >= MAX_PARTS) {
        throw new Error(`chunk ${part.index} is beyond S3's ${MAX_PARTS} parts`);
      }
      const meter = metered(
        body,
        part.size,
        () =>
          new StorageSizeError(
            `Chunk ${part.index} is larger than ${part.size} bytes`,
            'wrong_size',
          ),
        (n) =>
          new StorageSizeError(
            `Chunk ${part.index} must be ${part.size} bytes; received ${n}`,
            'wrong_size',
          ),
      );
      let etag: string | undefined;
      try {
        // The same PartNumber again replaces the part S3 holds; a failed send leaves it as it was.
        ({ ETag: etag } = await client.send(
          new UploadPartCommand({
            Bucket,
            Key,
            UploadId: multipartId,
            PartNumber: part.index + 1,
            ContentLength: part.size,
            Body: meter.stream,
          }),
          { abortSignal: meter.signal },
        ));
      } catch (err) {
        const failure = meter.failure();
        meter.stream.destroy();
        if (failure) throw failure;
        if (isMissingUpload(err)) throw missing(`multipart upload ${multipartId}`);
        throw err;
      }
      if (!etag) throw new Error('S3 answered UploadPart without an ETag');
      return etag;
    },

    async completeMultipart(multipartId, key, parts, totalSize) {
      const Key = objectName(key);
      const size = parts.reduce((sum, p) => sum + p.size, 0);
      if (size !== totalSize) {
        throw new StorageSizeError(
          `Assembled file is ${size} bytes; expected ${totalSize}`,
          'wrong_size',
        );
      }
      const sorted = [...parts].sort((a, b) => a.index - b.index);
      try {
        await client.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key,
            UploadId: multipartId,
            MultipartUpload: {
              Parts: sorted.map((p) => ({ PartNumber: p.index + 1, ETag: p.etag })),
            },
          }),
          completeTimed,
        );
      } catch (err) {
        // Completed by an earlier call whose answer was lost: the object is in place (stores
        // answer such a repeat with NoSuchUpload, or with an error of their own).
        if ((await sizeOf(key).catch(() => null)) === totalSize) return;
        if (isMissingUpload(err)) throw missing(`multipart upload ${multipartId}`);
        throw err;
      }
    },

    abortMultipart(multipartId, key) {
      return abortUpload(multipartId, objectName(key));
    },

    /**
     * Nothing, without a call: S3 stores reclaim incomplete multipart uploads themselves, by the
     * bucket's lifecycle rule (docs/DEPLOYMENT.md), and not every store lists them.
     */
    async removeAbandonedMultipart() {
      return [];
    },

    /**
     * S3 has no temporary files: a whole-object write cut off by a crash leaves an incomplete
     * multipart upload, which the bucket's lifecycle rule aborts.
     */
    async removeTemporary() {
      return [];
    },

    localPath() {
      return null;
    },

    /**
     * A presigned GetObject URL (SigV4 query authentication). The response-content-* overrides
     * are part of what is signed, so the link's holder cannot change the type or disposition.
     */
    async presignedGet(key, { expiresInSeconds, contentType, contentDisposition, signedAt }) {
      const command = new GetObjectCommand({
        Bucket,
        Key: objectName(key),
        ResponseContentType: contentType,
        ResponseContentDisposition: contentDisposition,
      });
      return getSignedUrl(client, command, { expiresIn: expiresInSeconds, signingDate: signedAt });
    },

    /** Rejects with a StorageConfigError naming the wrong setting (also the start-up check). */
    async check() {
      const where = endpoint ?? `AWS S3 in ${options.region}`;
      try {
        await client.send(new HeadBucketCommand({ Bucket }), timed);
      } catch (err) {
        const status = statusOf(err);
        const name = nameOf(err) ?? 'Error';
        const detail = err instanceof Error ? err.message || name : String(err);
        if (status === undefined) {
          throw new StorageConfigError(
            endpoint ? 'S3_ENDPOINT' : 'S3_REGION',
            `cannot reach ${where}: ${detail}`,
          );
        }
        if (status === 404 || name === 'NoSuchBucket') {
          throw new StorageConfigError('S3_BUCKET', `no bucket "${Bucket}" at ${where}`);
        }
        if (
          status === 301 ||
          name === 'PermanentRedirect' ||
          name === 'AuthorizationHeaderMalformed'
        ) {
          throw new StorageConfigError(
            'S3_REGION',
            `bucket "${Bucket}" is not in ${options.region}`,
          );
        }
        if (status === 401 || status === 403) {
          throw new StorageConfigError(
            'S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY',
            `${where} refused these credentials for bucket "${Bucket}" (${name})`,
          );
        }
        throw new StorageConfigError(
          'S3_ENDPOINT',
          `${where} answered ${status} ${name}: ${detail}`,
        );
      }
    },

    destroy() {
      client.destroy();
    },
  };
}
