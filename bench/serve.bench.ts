/**
 * Serving, in one run per engine (SQLite, then PostgreSQL): Upshot's share link for a 10 KiB and
 * a 100 MiB file beside nginx serving the same bytes from the same disk (one worker, sendfile,
 * keep-alive connections kept for the whole row), the server's idle memory, and single deletes
 * beside `GET /api/health` measured in the same run.
 *
 * - 10 KiB, 64 connections: BENCH_ROUNDS (default 5) rounds, each Upshot row right after an
 *   nginx row; the figure is the median of the rounds' shares of their nginx row, and the median
 *   p99. Targets: at least 40% of nginx, p99 under 10 ms. After each Upshot row, the same bytes
 *   behind a password (its unlock cookie sent) and behind a view limit (every request spends a
 *   view), each beside the open link's row of its round.
 * - 100 MiB, 4 connections: MiB/s beside nginx's. Target: at or above nginx.
 * - Idle RSS, after start-up and again after the rows. Target: under 100 MiB.
 * - 300 deletes one after another through HTTP, each upload served once first, beside 300
 *   `GET /api/health`: median and p95.
 *
 * wrk over loopback, one thread; p99 from `wrk --latency`. PostgreSQL gets a fresh database at
 * BENCH_DATABASE_URL, TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres, created
 * and dropped by the run. Needs nginx and wrk (apt-get install nginx-light wrk).
 *   npm run serve -w bench
 * BENCH_SECONDS (default 8) per row; BENCH_ROWS=small skips the 100 MiB rows.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  BENCH_ENV,
  fmt,
  makeRandomFile,
  median,
  MiB,
  onEachEngine,
  percentile,
  signInToken,
  startServer,
  timed,
} from './support/common.ts';

const DURATION = process.env.BENCH_SECONDS ?? '8';
const SMALL_ONLY = process.env.BENCH_ROWS === 'small';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '5');
if (!Number.isInteger(ROUNDS) || ROUNDS < 1)
  throw new Error('BENCH_ROUNDS: a whole number, 1 or more');
const SMALL_CONNECTIONS = 64;
const LARGE_CONNECTIONS = 4;
const DELETES = 300;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

type Measure = { rps: number; mibps: number; p99ms: number; requests: number };

function toMs(value: string, unit: string): number {
  return Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? NaN);
}

function wrk(
  url: string,
  connections: number,
  seconds = DURATION,
  headers: Record<string, string> = {},
): Measure {
  const sent = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const out = execFileSync(
    'wrk',
    ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '--latency', ...sent, url],
    { encoding: 'utf8' },
  );
  // Errors or short answers would inflate the figures: refuse to report them.
  const bad =
    /Non-2xx or 3xx responses:.*/.exec(out) ??
    /Socket errors: connect [1-9].*|Socket errors: .*(read|write|timeout) [1-9].*/.exec(out);
  if (bad) throw new Error(`wrk against ${url}: ${bad[0]}`);
  const m = /Transfer\/sec:\s+([\d.]+)(\w+)/.exec(out);
  const unit = { B: 1 / MiB, KB: 1 / 1024, MB: 1, GB: 1024 }[m?.[2] ?? 'MB'] ?? 1;
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)\s*$/m.exec(out);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN),
    mibps: Number(m?.[1] ?? NaN) * unit,
    p99ms: p99 ? toMs(p99[1]!, p99[2]!) : NaN,
  };
}

async function waitForOk(url: string) {
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

/** nginx as a static file server is usually tuned: one worker, sendfile, keep-alive kept. */
async function startNginx(root: string, port: number) {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-nginx-'));
  const conf = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 10000000;
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fcgi; uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  server { listen 127.0.0.1:${port}; root ${root}; }
}
`,
  );
  const child = spawn('nginx', ['-p', prefix, '-c', conf], { stdio: 'ignore' });
  await waitForOk(`http://127.0.0.1:${port}/small.bin`);
  return async () => {
    child.kill('SIGQUIT');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(prefix, { recursive: true, force: true });
  };
}

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? NaN) / 1024;
}

/** The RSS of a process left alone for `ms`. */
async function idleRss(pid: number, ms = 5000): Promise<number> {
  await new Promise((r) => setTimeout(r, ms));
  return rssMiB(pid);
}

async function upload(
  base: string,
  token: string,
  name: string,
  bytes: Buffer,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  form.append('file', new Blob([bytes]), name);
  const res = await fetch(`${base}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { upload: { id: string; shortCode: string } }).upload;
}

/** The unlock cookie a right password earns for a protected link (`name=value`). */
async function unlockCookie(url: string, password: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password }).toString(),
    redirect: 'manual',
  });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (res.status !== 303 || !cookie) throw new Error(`unlock: ${res.status}`);
  return cookie;
}

/** Milliseconds of each call, one after another. */
async function times(n: number, call: (i: number) => Promise<Response>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const { ms: took, value } = await timed(() => call(i));
    await value.arrayBuffer();
    if (!value.ok) throw new Error(`${value.url}: ${value.status}`);
    ms.push(took);
  }
  return ms.sort((a, b) => a - b);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-serve-'));
makeRandomFile(path.join(work, 'small.bin'), 10 * 1024);
if (!SMALL_ONLY) makeRandomFile(path.join(work, 'large.bin'), 100 * MiB);
// nginx's worker runs as an unprivileged user.
fs.chmodSync(work, 0o755);
for (const f of fs.readdirSync(work)) fs.chmodSync(path.join(work, f), 0o644);

const nginxPort = await freePort();
const nginxBase = `http://127.0.0.1:${nginxPort}`;
const stopNginx = await startNginx(work, nginxPort);

const pct = (a: number, b: number) => `${fmt((a / b) * 100, 0)}%`;
const rps = (m: Measure) =>
  `${fmt(m.rps, 0).padStart(6)} req/s  p99 ${fmt(m.p99ms, 2).padStart(5)} ms`;
const ms2 = (sorted: number[]) =>
  `median ${fmt(median(sorted), 2)} ms, p95 ${fmt(percentile(sorted, 95), 2)} ms`;

try {
  console.log(`\nServing over loopback, wrk ${DURATION}s per row, nginx beside each engine's rows`);
  await onEachEngine(
    async (label, databaseUrl) => {
      const server = await startServer({
        ...BENCH_ENV,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      });
      try {
        console.log(`\n  ${label}`);
        const startedRss = await idleRss(server.pid);
        const token = await signInToken(server.url);
        const small = await upload(
          server.url,
          token,
          'small.bin',
          fs.readFileSync(path.join(work, 'small.bin')),
        );
        const smallUrl = `${server.url}/${small.shortCode}`;
        // The same bytes behind link controls: a password (opened by its unlock cookie), and a
        // view limit no run reaches (every request a view, each spent by one update).
        const smallBytes = fs.readFileSync(path.join(work, 'small.bin'));
        const locked = await upload(server.url, token, 'locked.bin', smallBytes, {
          password: 'bench password',
        });
        const lockedUrl = `${server.url}/${locked.shortCode}`;
        const cookie = { cookie: await unlockCookie(lockedUrl, 'bench password') };
        const limited = await upload(server.url, token, 'limited.bin', smallBytes, {
          maxViews: '1000000',
        });
        const limitedUrl = `${server.url}/${limited.shortCode}`;
        // Uploaded now: a connection left idle through the rows (wrk blocks this process's event
        // loop) may have been closed by the server without this client noticing yet.
        const big = SMALL_ONLY
          ? null
          : await upload(
              server.url,
              token,
              'large.bin',
              fs.readFileSync(path.join(work, 'large.bin')),
            );
        // Warm-up, not reported: the code paths compiled, connections and caches made.
        wrk(smallUrl, SMALL_CONNECTIONS, '2');
        wrk(`${nginxBase}/small.bin`, SMALL_CONNECTIONS, '1');
        wrk(lockedUrl, SMALL_CONNECTIONS, '1', cookie);
        wrk(limitedUrl, SMALL_CONNECTIONS, '1');
        const pairs: { nginx: Measure; upshot: Measure; locked: Measure; limited: Measure }[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const nginx = wrk(`${nginxBase}/small.bin`, SMALL_CONNECTIONS);
          pairs.push({
            nginx,
            upshot: wrk(smallUrl, SMALL_CONNECTIONS),
            locked: wrk(lockedUrl, SMALL_CONNECTIONS, DURATION, cookie),
            limited: wrk(limitedUrl, SMALL_CONNECTIONS),
          });
        }
        console.log(`    10 KiB, ${SMALL_CONNECTIONS} connections, ${ROUNDS} rounds`);
        for (const { nginx, upshot, locked: l, limited: v } of pairs) {
          console.log(`      nginx   ${rps(nginx)}`);
          console.log(`      Upshot  ${rps(upshot)}  ${pct(upshot.rps, nginx.rps)} of nginx`);
          console.log(`        password, unlocked  ${rps(l)}  ${pct(l.rps, upshot.rps)} of open`);
          console.log(`        view-limited        ${rps(v)}  ${pct(v.rps, upshot.rps)} of open`);
        }
        const shares = pairs.map((p) => p.upshot.rps / p.nginx.rps);
        console.log(
          `      Upshot: ${pct(median(shares), 1)} of nginx (median of ${ROUNDS} rounds: ` +
            `${shares.map((s) => pct(s, 1)).join(', ')}), ` +
            `${fmt(median(pairs.map((p) => p.upshot.rps)), 0)} req/s, ` +
            `p99 ${fmt(median(pairs.map((p) => p.upshot.p99ms)), 2)} ms ` +
            `(nginx ${fmt(median(pairs.map((p) => p.nginx.rps)), 0)} req/s, ` +
            `p99 ${fmt(median(pairs.map((p) => p.nginx.p99ms)), 2)} ms)`,
        );

        for (const [what, pick] of [
          ['password, unlocked by its cookie', (p: (typeof pairs)[number]) => p.locked],
          ['view-limited, every request a view', (p: (typeof pairs)[number]) => p.limited],
        ] as const) {
          const of = pairs.map((p) => pick(p).rps / p.upshot.rps);
          console.log(
            `      ${what}: ${pct(median(of), 1)} of the open link's req/s ` +
              `(${fmt(median(pairs.map((p) => pick(p).rps)), 0)} req/s, ` +
              `p99 ${fmt(median(pairs.map((p) => pick(p).p99ms)), 2)} ms)`,
          );
        }

        let large: Measure | null = null;
        if (big) {
          const nginxLarge = wrk(`${nginxBase}/large.bin`, LARGE_CONNECTIONS);
          large = wrk(`${server.url}/${big.shortCode}`, LARGE_CONNECTIONS);
          console.log(`    100 MiB, ${LARGE_CONNECTIONS} connections`);
          console.log(`      nginx   ${fmt(nginxLarge.mibps, 0).padStart(5)} MiB/s`);
          console.log(
            `      Upshot  ${fmt(large.mibps, 0).padStart(5)} MiB/s  ` +
              `${pct(large.mibps, nginxLarge.mibps)} of nginx`,
          );
        }

        // Every view is counted: at least one per answer wrk received (views may be committed
        // a moment after their answer).
        const answered =
          pairs.reduce((sum, p) => sum + p.upshot.requests + p.locked.requests, 0) +
          pairs.reduce((sum, p) => sum + p.limited.requests, 0) +
          (large?.requests ?? 0);
        let views = 0;
        for (let i = 0; i < 50 && views < answered; i++) {
          if (i > 0) await new Promise((r) => setTimeout(r, 100));
          const stats = await fetch(`${server.url}/api/stats`, {
            headers: { authorization: `Bearer ${token}` },
          })
            .then((r) => r.json() as Promise<{ totalViews: number }>)
            .catch(() => null);
          views = stats?.totalViews ?? views;
        }
        if (views < answered) throw new Error(`${views} views counted for ${answered} answers`);
        console.log(`    views counted: ${views} for at least ${answered} answers`);

        const loadedRss = await idleRss(server.pid);
        console.log(
          `    idle RSS: ${fmt(startedRss, 0)} MiB after start-up, ${fmt(loadedRss, 0)} MiB after the rows`,
        );

        const auth = { authorization: `Bearer ${token}` };
        const doomed: string[] = [];
        for (let i = 0; i < DELETES; i++) {
          const up = await upload(server.url, token, `d${i}.txt`, Buffer.from(`delete me ${i}`));
          await (await fetch(`${server.url}/${up.shortCode}`)).arrayBuffer();
          doomed.push(up.id);
        }
        const health = await times(DELETES, () => fetch(`${server.url}/api/health`));
        const deletes = await times(DELETES, (i) =>
          fetch(`${server.url}/api/uploads/${doomed[i]}`, { method: 'DELETE', headers: auth }),
        );
        console.log(`    ${DELETES} calls one after another`);
        console.log(`      GET /api/health          ${ms2(health)}`);
        console.log(`      DELETE /api/uploads/{id} ${ms2(deletes)}`);
      } finally {
        await server.stop();
      }
    },
    { postgres: 'postgres://postgres@127.0.0.1:5432/postgres' },
  );
} finally {
  await stopNginx();
  fs.rmSync(work, { recursive: true, force: true });
}
