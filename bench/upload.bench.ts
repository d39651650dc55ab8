/**
 * Upload throughput over loopback, beside `dd` writing the same bytes to the same disk, with
 * the server's peak RSS. Simple uploads: 100 MiB files (their limit) one after another up to
 * the size; chunked: one file of the size in 50 MiB chunks. Target: 90% of dd or better (dd
 * runs before, between and after the uploads; the median is the reference).
 *   npm run upload -w bench [-- --gib 5] [-- --parallel 2]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { SQLite } from '../server/src/db/database.ts';
import { CHUNK_SIZE, MAX_SIMPLE_UPLOAD_BYTES } from '@upshot/contract';
import {
  BENCH_ENV,
  fmt,
  makeRandomFile,
  mbps,
  median,
  MiB,
  postFilePart,
  postJson,
  rssSampler,
  signInToken,
  startServer,
  timed,
} from './support/common.ts';

const gib = Number(process.argv[process.argv.indexOf('--gib') + 1] || 1) || 1;
const totalBytes = Math.round(gib * 1024 * MiB);
const parallelArg = process.argv.indexOf('--parallel');
const parallel = parallelArg > 0 ? Number(process.argv[parallelArg + 1]) : 1;
const agent = new http.Agent({ keepAlive: true });

const slice = (file: string, start: number, length: number) =>
  fs.createReadStream(file, { start, end: start + length - 1, highWaterMark: MiB });

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-bench-'));
const source = path.join(work, 'source.bin');
console.log(`Preparing a ${gib} GiB file of random bytes...`);
makeRandomFile(source, totalBytes);

const server = await startServer(BENCH_ENV);
try {
  const token = await signInToken(server.url);
  const rss = rssSampler(server.pid);
  const idleRss = rss.peak();

  // Reference: dd copying the same bytes into the server's data directory, flushed to disk.
  // The disk's speed moves on a shared machine, so dd runs before, between and after the
  // uploads and the median is the reference.
  const ddRates: number[] = [];
  const dd = async () => {
    const ref = await timed(async () =>
      execFileSync('dd', [
        `if=${source}`,
        `of=${path.join(server.dataDir, 'dd.bin')}`,
        `bs=${MiB}`,
        'conv=fsync',
        'status=none',
      ]),
    );
    fs.rmSync(path.join(server.dataDir, 'dd.bin'));
    ddRates.push(mbps(totalBytes, ref.ms));
  };
  await dd();

  const cpuOf = (statFile: string) => {
    const f = fs.readFileSync(statFile, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, seconds
  };
  const cpu = () => cpuOf(`/proc/${server.pid}/stat`);
  const mainCpu = () => cpuOf(`/proc/${server.pid}/task/${server.pid}/stat`);
  const me = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  let cpu0 = cpu();
  let main0 = mainCpu();
  let me0 = me();
  const cpuReport = () => {
    const line = `server CPU ${fmt(cpu() - cpu0)} s (main thread ${fmt(mainCpu() - main0)} s), client CPU ${fmt(me() - me0)} s`;
    cpu0 = cpu();
    main0 = mainCpu();
    me0 = me();
    return line;
  };

  // Simple uploads (each at most 100 MiB).
  rss.reset();
  const simpleBytes = Math.min(totalBytes, 10 * MAX_SIMPLE_UPLOAD_BYTES);
  const simple = await timed(async () => {
    for (let offset = 0; offset < simpleBytes; offset += MAX_SIMPLE_UPLOAD_BYTES) {
      const length = Math.min(MAX_SIMPLE_UPLOAD_BYTES, simpleBytes - offset);
      const res = await postFilePart(
        agent,
        `${server.url}/api/upload`,
        token,
        {},
        'file',
        slice(source, offset, length),
        length,
      );
      if (res.status !== 201) throw new Error(`simple upload: ${res.status} ${res.body}`);
    }
  });
  const simpleRss = rss.peak();
  const simpleCpu = cpuReport();
  const simpleRate = mbps(simpleBytes, simple.ms);
  await dd();

  // Chunked upload of the whole file.
  rss.reset();
  const totalChunks = Math.ceil(totalBytes / CHUNK_SIZE);
  const chunked = await timed(async () => {
    const { uploadId } = await postJson(`${server.url}/api/chunked-upload/init`, token, {
      filename: 'big.bin',
      mimeType: 'application/octet-stream',
      totalSize: totalBytes,
      totalChunks,
    });
    // `parallel` chunks in flight at once (1, as the web app sends them; try --parallel 2),
    // each fsynced before its 204.
    let next = 0;
    const sender = async () => {
      for (let i = next++; i < totalChunks; i = next++) {
        const start = i * CHUNK_SIZE;
        const length = Math.min(CHUNK_SIZE, totalBytes - start);
        const res = await postFilePart(
          agent,
          `${server.url}/api/chunked-upload/chunk`,
          token,
          { uploadId: String(uploadId), chunkIndex: String(i) },
          'chunk',
          slice(source, start, length),
          length,
        );
        if (res.status !== 204) throw new Error(`chunk ${i}: ${res.status} ${res.body}`);
      }
    };
    await Promise.all(Array.from({ length: parallel }, sender));
    await postJson(`${server.url}/api/chunked-upload/complete`, token, { uploadId });
  });
  const chunkedRss = rss.peak();
  const chunkedCpu = cpuReport();
  const chunkedRate = mbps(totalBytes, chunked.ms);
  // SHA-256 digests are computed after each response, at low priority: how long until all
  // are there once the last upload has been answered.
  const digests = await timed(async () => {
    const db = new SQLite(path.join(server.dataDir, 'upshot.db'), { readonly: true });
    try {
      const missing = db.prepare('SELECT count(*) AS n FROM uploads WHERE sha256 IS NULL');
      for (let waited = 0; (missing.get() as { n: number }).n > 0; waited += 50) {
        if (waited > 120_000) throw new Error('digests still missing after 2 minutes');
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      db.close();
    }
  });
  const hashCpu = cpuReport();
  rss.stop();
  await dd();
  const ddRate = median(ddRates);

  const MB = (b: number) => `${fmt(b / MiB, 0)} MiB`;
  console.log(`\nUpload throughput, ${gib} GiB over loopback (MiB/s; ratio to dd in the same run)`);
  console.log(
    `  dd (reference, conv=fsync)      ${fmt(ddRate).padStart(8)} MiB/s  median of ${ddRates.map((r) => fmt(r, 0)).join(', ')}`,
  );
  console.log(
    `  simple upload (${simpleBytes / MAX_SIMPLE_UPLOAD_BYTES} x 100 MiB)   ${fmt(simpleRate).padStart(8)} MiB/s  ${fmt((simpleRate / ddRate) * 100, 0)}% of dd   peak RSS ${MB(simpleRss)}`,
  );
  console.log(
    `  chunked upload (${totalChunks} chunks, ${parallel} at a time) ${fmt(chunkedRate).padStart(8)} MiB/s  ${fmt((chunkedRate / ddRate) * 100, 0)}% of dd   peak RSS ${MB(chunkedRss)}`,
  );
  console.log(`  server RSS when idle: ${MB(idleRss)}`);
  console.log(
    `  all SHA-256 digests stored ${fmt(digests.ms / 1000)} s after the last upload (${hashCpu})`,
  );
  console.log(
    `  CPU, simple: ${simpleCpu}; chunked: ${chunkedCpu} (wall ${fmt(simple.ms / 1000)} s, ${fmt(chunked.ms / 1000)} s)`,
  );
} finally {
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
