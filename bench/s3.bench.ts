/**
 * Upshot on the S3 driver, against s3rver started here (its data on local disk, in a process of
 * its own), beside the same bytes sent straight to s3rver with the AWS SDK in the same run:
 *  - uploads: simple (100 MiB files, their limit, one after another) beside PutObject of the
 *    same bytes; chunked (one file in 50 MiB chunks, one after another, as the web app sends
 *    them) beside an SDK multipart upload of the same parts;
 *  - serving a 10 KiB and a 100 MiB file through the share link (S3_SERVE=proxy) beside
 *    GetObject, and beside the presigned URL the driver makes (what S3_SERVE=presigned hands out),
 *    all with the same Node client;
 *  - the server's peak RSS (VmRSS) during a large chunked upload whose bytes are generated as
 *    they are sent (never held whole anywhere), against the 200 MB target.
 *   npm run s3 -w bench
 * Sizes: BENCH_S3_GIB (the chunked upload, 1), BENCH_S3_SIMPLE (simple uploads, 10),
 * BENCH_S3_RSS_GIB (the RSS run, 5), BENCH_SECONDS (per serving row, 8);
 * BENCH_SERVER_NODE_OPTIONS (V8 flags to try, e.g. --max-semi-space-size=4) is given to the
 * server alone.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { SQLite } from '../server/src/db/database.ts';
import { CHUNK_SIZE, MAX_SIMPLE_UPLOAD_BYTES } from '@upshot/contract';
import { createS3Storage } from '../server/src/storage/s3.ts';
import {
  BENCH_ENV,
  fmt,
  makeRandomFile,
  mbps,
  MiB,
  postFilePart,
  postJson,
  rssSampler,
  signInToken,
  startServer,
  timed,
} from './support/common.ts';

const GiB = 1024 * MiB;
const setting = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};
const chunkedBytes = Math.round(setting('BENCH_S3_GIB', 1) * GiB);
const simpleCount = Math.round(setting('BENCH_S3_SIMPLE', 10));
const rssBytes = Math.round(setting('BENCH_S3_RSS_GIB', 5) * GiB);
const seconds = setting('BENCH_SECONDS', 8);
/** Node options for the server process alone (to try V8 flags), from BENCH_SERVER_NODE_OPTIONS. */
const serverNodeOptions = process.env.BENCH_SERVER_NODE_OPTIONS ?? '';
/** The target: the server's RSS stays under 200 MB during the large chunked upload. */
const RSS_TARGET = 200 * 1000 * 1000;

const here = path.dirname(fileURLToPath(import.meta.url));
const MB = (b: number) => `${fmt(b / MiB, 0)} MiB`;
const pct = (ours: number, ref: number) => `${fmt((ours / ref) * 100, 0)}%`;

// s3rver keeps each object once, and a multipart upload's parts beside the object while it
// joins them; the source file for the 1 GiB runs is on the same disk.
const sourceBytes = Math.max(chunkedBytes, simpleCount * MAX_SIMPLE_UPLOAD_BYTES, 100 * MiB);
const needed = sourceBytes + 2 * Math.max(chunkedBytes, rssBytes) + GiB;
const disk = fs.statfsSync(os.tmpdir());
const free = disk.bavail * disk.bsize;
console.log(
  `Free space in ${os.tmpdir()}: ${fmt(free / GiB)} GiB; this run needs about ${fmt(needed / GiB)} GiB`,
);
if (free < needed) throw new Error('not enough free disk space (lower BENCH_S3_RSS_GIB)');

/** s3rver in its own process (support/s3rver.ts); answers its endpoint, bucket and stop(). */
async function startStore() {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'support/s3rver.ts')], {
    cwd: here,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (d: Buffer) => (errors += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}:\n${errors}`)));
  });
  const info = JSON.parse(line) as { endpoint: string; dir: string; bucket: string };
  return {
    ...info,
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

const slice = (file: string, start: number, length: number) =>
  fs.createReadStream(file, { start, end: start + length - 1, highWaterMark: MiB });

/** `length` bytes made as they are read: 1 MiB views of one 16 MiB random block, in turn. */
const block = crypto.randomBytes(16 * MiB);
function generated(length: number): Readable {
  async function* chunks() {
    for (let sent = 0; sent < length;) {
      const at = sent % block.length;
      const n = Math.min(MiB, length - sent, block.length - at);
      sent += n;
      yield block.subarray(at, at + n);
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** GETs `url` over the keep-alive agent; answers the bytes received (a non-200 is an error). */
function httpGet(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`GET ${url}: ${res.statusCode}`));
        }
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve(n));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** `concurrency` loops of `get` for `seconds`; every answer must be `expected` bytes. */
async function load(get: () => Promise<number>, expected: number, concurrency: number) {
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  let requests = 0;
  let bytes = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const n = await get();
        if (n !== expected) throw new Error(`a short answer: ${n} of ${expected} bytes`);
        requests += 1;
        bytes += n;
      }
    }),
  );
  const ms = performance.now() - t0;
  return { rps: requests / (ms / 1000), mibps: mbps(bytes, ms) };
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-s3-bench-'));
const source = path.join(work, 'source.bin');
console.log(`Preparing ${fmt(sourceBytes / GiB, 2)} GiB of random bytes...`);
makeRandomFile(source, sourceBytes);

const store = await startStore();
/** The built server, as `npm start` runs it, on the S3 driver and s3rver's bucket. */
const startApp = () =>
  startServer({
    ...BENCH_ENV,
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: store.endpoint,
    S3_BUCKET: store.bucket,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    ...(serverNodeOptions ? { NODE_OPTIONS: serverNodeOptions } : {}),
  });
let server = await startApp();
// The driver the server runs, here for the references (its SDK client) and presigned URLs.
const driver = createS3Storage({
  endpoint: store.endpoint,
  region: 'us-east-1',
  bucket: store.bucket,
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  forcePathStyle: true,
});
const { client } = driver;
const Bucket = store.bucket;

/** Removes every object of the bucket (between runs, to keep the disk free). */
async function emptyBucket() {
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken }));
    for (const o of page.Contents ?? []) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: o.Key }));
    }
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
}

/** Waits until every upload has its SHA-256 (computed after the response, from the store). */
async function digestsStored(): Promise<number> {
  const t = await timed(async () => {
    const db = new SQLite(path.join(server.dataDir, 'upshot.db'), { readonly: true });
    try {
      const missing = db.prepare('SELECT count(*) AS n FROM uploads WHERE sha256 IS NULL');
      for (let waited = 0; (missing.get() as { n: number }).n > 0; waited += 50) {
        if (waited > 600_000) throw new Error('digests still missing after 10 minutes');
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      db.close();
    }
  });
  return t.ms;
}

function storageKeyOf(uploadId: string): string {
  const db = new SQLite(path.join(server.dataDir, 'upshot.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT storage_key FROM uploads WHERE id = ?').get(uploadId) as {
      storage_key: string;
    };
    return row.storage_key;
  } finally {
    db.close();
  }
}

/** An SDK multipart upload of `bytes` of `file` in CHUNK_SIZE parts, one after another. */
async function sdkMultipart(Key: string, file: string, bytes: number) {
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
  const Parts: { PartNumber: number; ETag: string }[] = [];
  for (let i = 0; i * CHUNK_SIZE < bytes; i++) {
    const start = i * CHUNK_SIZE;
    const length = Math.min(CHUNK_SIZE, bytes - start);
    const res = await client.send(
      new UploadPartCommand({
        Bucket,
        Key,
        UploadId,
        PartNumber: i + 1,
        ContentLength: length,
        Body: slice(file, start, length),
      }),
    );
    Parts.push({ PartNumber: i + 1, ETag: res.ETag ?? '' });
  }
  await client.send(
    new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts } }),
  );
}

/** Upshot's chunked upload of `bytes` in CHUNK_SIZE chunks, one after another. */
async function chunkedUpload(
  token: string,
  bytes: number,
  chunk: (start: number, length: number) => Readable,
) {
  const totalChunks = Math.ceil(bytes / CHUNK_SIZE);
  const { uploadId } = await postJson(`${server.url}/api/chunked-upload/init`, token, {
    filename: 'big.bin',
    mimeType: 'application/octet-stream',
    totalSize: bytes,
    totalChunks,
  });
  for (let i = 0; i < totalChunks; i++) {
    const start = i * CHUNK_SIZE;
    const length = Math.min(CHUNK_SIZE, bytes - start);
    const res = await postFilePart(
      agent,
      `${server.url}/api/chunked-upload/chunk`,
      token,
      { uploadId: String(uploadId), chunkIndex: String(i) },
      'chunk',
      chunk(start, length),
      length,
    );
    if (res.status !== 204) throw new Error(`chunk ${i}: ${res.status} ${res.body}`);
  }
  await postJson(`${server.url}/api/chunked-upload/complete`, token, { uploadId });
  return totalChunks;
}

try {
  const token = await signInToken(server.url);
  const rss = rssSampler(server.pid);
  const idleRss = rss.peak();

  // --- Simple uploads: PutObject, Upshot, PutObject again (the store's speed moves).
  const simpleBytes = Math.min(simpleCount * MAX_SIMPLE_UPLOAD_BYTES, sourceBytes);
  const simpleFiles = Math.ceil(simpleBytes / MAX_SIMPLE_UPLOAD_BYTES);
  const eachSimple = async (send: (i: number, start: number, length: number) => Promise<void>) => {
    for (let i = 0; i < simpleFiles; i++) {
      const start = i * MAX_SIMPLE_UPLOAD_BYTES;
      await send(i, start, Math.min(MAX_SIMPLE_UPLOAD_BYTES, simpleBytes - start));
    }
  };
  const putObjects = async () =>
    mbps(
      simpleBytes,
      (
        await timed(() =>
          eachSimple(async (i, start, length) => {
            await client.send(
              new PutObjectCommand({
                Bucket,
                Key: `bench/simple-${i}`,
                ContentLength: length,
                Body: slice(source, start, length),
              }),
            );
          }),
        )
      ).ms,
    );
  // What the driver does with a body of unknown length: lib-storage's Upload, as a multipart
  // upload of 8 MiB parts, 4 at once (s3.ts's defaults), which s3rver then joins.
  const sdkUploads = async () =>
    mbps(
      simpleBytes,
      (
        await timed(() =>
          eachSimple(async (i, start, length) => {
            await new Upload({
              client,
              params: { Bucket, Key: `bench/simple-${i}`, Body: slice(source, start, length) },
              partSize: 8 * MiB,
              queueSize: 4,
            }).done();
          }),
        )
      ).ms,
    );
  const simpleRefs = [await putObjects()];
  const simpleUploadRef = await sdkUploads();
  rss.reset();
  const simple = await timed(() =>
    eachSimple(async (_i, start, length) => {
      const res = await postFilePart(
        agent,
        `${server.url}/api/upload`,
        token,
        {},
        'file',
        slice(source, start, length),
        length,
      );
      if (res.status !== 201) throw new Error(`simple upload: ${res.status} ${res.body}`);
    }),
  );
  const simpleRss = rss.peak();
  const simpleDigests = await digestsStored();
  simpleRefs.push(await putObjects());
  await emptyBucket();

  // --- Chunked upload: SDK multipart, Upshot, SDK multipart again.
  const chunkedRefs = [
    mbps(chunkedBytes, (await timed(() => sdkMultipart('bench/chunked', source, chunkedBytes))).ms),
  ];
  rss.reset();
  let totalChunks = 0;
  const chunked = await timed(async () => {
    totalChunks = await chunkedUpload(token, chunkedBytes, (start, length) =>
      slice(source, start, length),
    );
  });
  const chunkedRss = rss.peak();
  const chunkedDigests = await digestsStored();
  chunkedRefs.push(
    mbps(chunkedBytes, (await timed(() => sdkMultipart('bench/chunked', source, chunkedBytes))).ms),
  );
  await emptyBucket();

  // --- Serving: GetObject, Upshot's link, the presigned URL, GetObject again.
  type Row = {
    label: string;
    connections: number;
    ref: number[];
    refRps: number[];
    ours: { rps: number; mibps: number };
    presigned: { rps: number; mibps: number };
    peakRss: number;
  };
  const rows: Row[] = [];
  for (const [label, bytes, connections] of [
    ['10 KiB', 10 * 1024, 16],
    ['100 MiB', 100 * MiB, 4],
  ] as const) {
    const res = await postFilePart(
      agent,
      `${server.url}/api/upload`,
      token,
      {},
      'file',
      slice(source, 0, bytes),
      bytes,
    );
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.body}`);
    const up = (JSON.parse(res.body) as { upload: { id: string; shortCode: string } }).upload;
    await digestsStored();
    const Key = `${driver.prefix}${storageKeyOf(up.id)}`;
    const sdkGet = async () => {
      const out = await client.send(new GetObjectCommand({ Bucket, Key }));
      let n = 0;
      for await (const c of out.Body as Readable) n += (c as Buffer).length;
      return n;
    };
    const link = `${server.url}/${up.shortCode}`;
    const presignedUrl = (await driver.presignedGet(storageKeyOf(up.id), {
      expiresInSeconds: 3600,
      contentType: 'application/octet-stream',
      contentDisposition: 'attachment; filename="bench.bin"',
    })) as string;
    const first = await load(sdkGet, bytes, connections);
    rss.reset();
    const ours = await load(() => httpGet(link), bytes, connections);
    const peakRss = rss.peak();
    const presigned = await load(() => httpGet(presignedUrl), bytes, connections);
    const last = await load(sdkGet, bytes, connections);
    rows.push({
      label,
      connections,
      ref: [first.mibps, last.mibps],
      refRps: [first.rps, last.rps],
      ours,
      presigned,
      peakRss,
    });
  }
  await emptyBucket();

  // --- RSS during a large chunked upload of generated bytes, on a new server process: a heap
  // grown by the runs above stays grown, and would count here.
  rss.stop();
  await server.stop();
  server = await startApp();
  const freshToken = await signInToken(server.url);
  const freshRss = rssSampler(server.pid);
  const freshIdleRss = freshRss.peak();
  const large = await timed(() =>
    chunkedUpload(freshToken, rssBytes, (_start, length) => generated(length)),
  );
  const largeRss = freshRss.peak();
  freshRss.reset();
  const largeDigests = await digestsStored();
  const largeDigestRss = freshRss.peak();
  freshRss.stop();
  await emptyBucket();

  // --- Report.
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const refText = (xs: number[], unit = 'MiB/s') =>
    `${fmt(mean(xs)).padStart(7)} ${unit} (${xs.map((x) => fmt(x, 0)).join(', ')})`;
  console.log(
    `\nUploads to S3 (s3rver on local disk) over loopback; reference: the same bytes straight to s3rver with the SDK, before and after`,
  );
  const simpleRate = mbps(simpleBytes, simple.ms);
  console.log(
    `  simple, ${simpleFiles} x ${MB(MAX_SIMPLE_UPLOAD_BYTES)}   SDK PutObject ${refText(simpleRefs)} | Upshot ${fmt(simpleRate).padStart(7)} MiB/s  ${pct(simpleRate, mean(simpleRefs))} | peak RSS ${MB(simpleRss)} | digests ${fmt(simpleDigests / 1000)} s after`,
  );
  console.log(
    `    (SDK Upload, 8 MiB parts 4 at once, as the driver sends a body of unknown length: ${fmt(simpleUploadRef)} MiB/s; Upshot ${pct(simpleRate, simpleUploadRef)} of it)`,
  );
  const chunkedRate = mbps(chunkedBytes, chunked.ms);
  console.log(
    `  chunked, ${MB(chunkedBytes)} (${totalChunks} x 50 MiB)   SDK multipart ${refText(chunkedRefs)} | Upshot ${fmt(chunkedRate).padStart(7)} MiB/s  ${pct(chunkedRate, mean(chunkedRefs))} | peak RSS ${MB(chunkedRss)} | digest ${fmt(chunkedDigests / 1000)} s after`,
  );
  console.log(`  server RSS when idle: ${MB(idleRss)}`);
  console.log(
    `\nServing from S3, ${seconds} s per row; reference: GetObject with the SDK, before and after`,
  );
  for (const r of rows) {
    console.log(
      `  ${r.label.padEnd(8)} (${r.connections} conn)  SDK GetObject ${refText(r.refRps, 'req/s')} ${fmt(mean(r.ref)).padStart(7)} MiB/s | ` +
        `Upshot link ${fmt(r.ours.rps, 0).padStart(6)} req/s ${fmt(r.ours.mibps).padStart(7)} MiB/s ${pct(r.ours.mibps, mean(r.ref))} (peak RSS ${MB(r.peakRss)}) | ` +
        `presigned URL ${fmt(r.presigned.rps, 0).padStart(6)} req/s ${fmt(r.presigned.mibps).padStart(7)} MiB/s ${pct(r.presigned.mibps, mean(r.ref))}`,
    );
  }
  const largeRate = mbps(rssBytes, large.ms);
  console.log(
    `\nServer RSS during a ${fmt(rssBytes / GiB, 2)} GiB chunked upload to S3 (generated bytes; target under 200 MB)${serverNodeOptions ? `, server run with ${serverNodeOptions}` : ''}:`,
  );
  console.log(
    `  peak ${MB(largeRss)} (${fmt(largeRss / 1e6, 0)} MB): ${largeRss < RSS_TARGET ? 'met' : 'NOT MET'}; idle ${MB(freshIdleRss)}; ` +
      `${fmt(largeRate).padStart(7)} MiB/s (${pct(largeRate, mean(chunkedRefs))} of the SDK's multipart above); ` +
      `digest ${fmt(largeDigests / 1000)} s after, peak RSS meanwhile ${MB(largeDigestRss)}`,
  );
} finally {
  await server.stop();
  driver.destroy();
  await store.stop();
  agent.destroy();
  fs.rmSync(work, { recursive: true, force: true });
}
