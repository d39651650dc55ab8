/**
 * Serving throughput, in one run: Upshot's share link for a 10 KiB and a 100 MiB file, on
 * SQLite and on PostgreSQL, beside two references measured alongside each engine's rows:
 *
 * - a trivial Fastify route: a separate minimal Fastify app (same Fastify, same Node, its
 *   defaults, no logger) with one GET route answering the same 10 KiB from memory. It is what
 *   this machine can do through the framework Upshot is built on, with none of Upshot's work
 *   (lookup, privacy, headers, disk, views): the ceiling the 10 KiB figure is measured against;
 * - nginx (one worker, sendfile) serving the same bytes from the same disk.
 *
 * wrk over loopback, one thread: 64 connections for the 10 KiB rows, 4 for the 100 MiB rows
 * (a throughput row, as before); p99 from `wrk --latency`. The 10 KiB figure is the median of
 * BENCH_ROUNDS (default 3) rounds, each Upshot row between two rows of the trivial route (so
 * each follows about the same wait). PostgreSQL gets a fresh database at BENCH_DATABASE_URL,
 * TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres, created and dropped by
 * the run. Needs nginx and wrk (apt-get install nginx-light wrk).
 *   npm run serve -w bench
 * BENCH_SECONDS (default 8) per row; BENCH_ROWS=small skips the 100 MiB rows; BENCH_CPU_PROF=dir
 * profiles the servers' CPU during one more 10 KiB row after the rounds, not reported, into dir
 * (support/cpu-profiler.mjs; read the profiles with `npm run profile -w bench -- dir`);
 * BENCH_SERVER_NODE_OPTIONS is given to the Upshot server alone.
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
  signInToken,
  startServer,
} from './support/common.ts';

const DURATION = process.env.BENCH_SECONDS ?? '8';
const SMALL_ONLY = process.env.BENCH_ROWS === 'small';
const CPU_PROF = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null;
/** Node options for the Upshot server alone (to try V8 flags), from BENCH_SERVER_NODE_OPTIONS. */
const serverNodeOptions = process.env.BENCH_SERVER_NODE_OPTIONS ?? '';
/** Rounds of Upshot's 10 KiB row, each between two rows of the trivial route. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '3');
if (!Number.isInteger(ROUNDS) || ROUNDS < 1)
  throw new Error('BENCH_ROUNDS: a whole number, 1 or more');
const SMALL_CONNECTIONS = 64;
const LARGE_CONNECTIONS = 4;
const repoRoot = path.resolve(import.meta.dirname, '..');
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

type Measure = {
  rps: number;
  mibps: number;
  p99ms: number;
  requests: number;
  /** The server's CPU time (user and system, every thread and child process) per answer. */
  cpuUs: number;
};

/** User and system CPU seconds of a process and its children, all their threads. */
function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name: state is the 3rd field, utime the 14th, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    const children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
    return own + children.reduce((sum, child) => sum + cpuSeconds(child), 0);
  } catch {
    return NaN;
  }
}

function toMs(value: string, unit: string): number {
  return Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? NaN);
}

function wrk(url: string, connections: number, pid: number, seconds = DURATION): Measure {
  const cpuBefore = cpuSeconds(pid);
  const out = execFileSync(
    'wrk',
    ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '--latency', url],
    { encoding: 'utf8' },
  );
  // Errors or short answers would inflate the figures: refuse to report them.
  const bad =
    /Non-2xx or 3xx responses:.*/.exec(out) ??
    /Socket errors: connect [1-9].*|Socket errors: .*(read|write|timeout) [1-9].*/.exec(out);
  if (bad) throw new Error(`wrk against ${url}: ${bad[0]}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const m = /Transfer\/sec:\s+([\d.]+)(\w+)/.exec(out);
  const unit = { B: 1 / MiB, KB: 1 / 1024, MB: 1, GB: 1024 }[m?.[2] ?? 'MB'] ?? 1;
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)\s*$/m.exec(out);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  return {
    rps,
    requests,
    cpuUs: ((cpuSeconds(pid) - cpuBefore) / requests) * 1e6,
    mibps: Number(m?.[1] ?? NaN) * unit,
    p99ms: p99 ? toMs(p99[1]!, p99[2]!) : NaN,
  };
}

async function waitForOk(url: string) {
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

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
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fcgi; uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  server { listen 127.0.0.1:${port}; root ${root}; }
}
`,
  );
  const child = spawn('nginx', ['-p', prefix, '-c', conf], { stdio: 'ignore' });
  await waitForOk(`http://127.0.0.1:${port}/small.bin`);
  const stop = async () => {
    child.kill('SIGQUIT');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(prefix, { recursive: true, force: true });
  };
  return { pid: child.pid ?? 0, stop };
}

/** The reference: a minimal Fastify app, in a process of its own, answering the 10 KiB. */
async function startTrivialFastify(file: string, port: number) {
  const source = `
    import fs from 'node:fs';
    import Fastify from 'fastify';
    const bytes = fs.readFileSync(${JSON.stringify(file)});
    const app = Fastify();
    app.get('/small.bin', (request, reply) => {
      reply.type('application/octet-stream');
      return bytes;
    });
    await app.listen({ port: ${port}, host: '127.0.0.1' });
  `;
  // From the repository's root, so that 'fastify' is the server's own (hoisted) copy.
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForOk(`http://127.0.0.1:${port}/small.bin`);
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  return { pid: child.pid ?? 0, stop };
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-serve-'));
makeRandomFile(path.join(work, 'small.bin'), 10 * 1024);
if (!SMALL_ONLY) makeRandomFile(path.join(work, 'large.bin'), 100 * MiB);
// nginx's worker runs as an unprivileged user.
fs.chmodSync(work, 0o755);
for (const f of fs.readdirSync(work)) fs.chmodSync(path.join(work, f), 0o644);
if (CPU_PROF) fs.mkdirSync(CPU_PROF, { recursive: true });

const nginxPort = await freePort();
const nginxBase = `http://127.0.0.1:${nginxPort}`;
const nginx = await startNginx(work, nginxPort);
const fastifyPort = await freePort();
const fastify = await startTrivialFastify(path.join(work, 'small.bin'), fastifyPort);
const fastifyUrl = `http://127.0.0.1:${fastifyPort}/small.bin`;

const pct = (a: number, b: number) => `${fmt((a / b) * 100, 0)}%`;
const rps = (m: Measure) => `${fmt(m.rps, 0).padStart(6)} req/s`;
const p99 = (m: Measure) =>
  `p99 ${fmt(m.p99ms, 2).padStart(6)} ms  CPU ${fmt(m.cpuUs, 0).padStart(4)} µs/answer`;
const mibps = (m: Measure) => `${fmt(m.mibps, 0).padStart(5)} MiB/s`;

try {
  console.log(
    `\nServing over loopback, wrk ${DURATION}s per row; references measured beside each engine's rows${serverNodeOptions ? `; Upshot run with ${serverNodeOptions}` : ''}`,
  );
  await onEachEngine(
    async (label, databaseUrl) => {
      const server = await startServer({
        ...BENCH_ENV,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...(serverNodeOptions ? { NODE_OPTIONS: serverNodeOptions } : {}),
        ...(CPU_PROF
          ? {
              NODE_OPTIONS: `${serverNodeOptions} --import=${path.join(import.meta.dirname, 'support/cpu-profiler.mjs')}`,
              BENCH_CPU_PROFILE_FILE: path.join(CPU_PROF, `${label}.cpuprofile`),
            }
          : {}),
      });
      try {
        const token = await signInToken(server.url);
        const codes: Record<string, string> = {};
        for (const name of SMALL_ONLY ? ['small.bin'] : ['small.bin', 'large.bin']) {
          const form = new FormData();
          form.append('file', new Blob([fs.readFileSync(path.join(work, name))]), name);
          const res = await fetch(`${server.url}/api/upload`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}` },
            body: form,
          });
          if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
          codes[name] = ((await res.json()) as { upload: { shortCode: string } }).upload.shortCode;
        }
        console.log(`\n  ${label}`);
        // Warm-up, not reported: the code paths compiled, connections and caches made.
        const warmUp = wrk(
          `${server.url}/${codes['small.bin']}`,
          SMALL_CONNECTIONS,
          server.pid,
          '2',
        );
        wrk(fastifyUrl, SMALL_CONNECTIONS, fastify.pid, '1');
        // The references beside Upshot: the trivial route before and after each of Upshot's
        // rounds, the mean of its two neighbours that round's reference (the machine is shared,
        // only neighbours compare), and the median of the rounds the figure. Every round of
        // Upshot follows one row of the trivial route, so about the same wait before each (the
        // first also follows the trivial route's 1 s warm-up).
        const trivial = [wrk(fastifyUrl, SMALL_CONNECTIONS, fastify.pid)];
        const rounds: Measure[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          rounds.push(wrk(`${server.url}/${codes['small.bin']}`, SMALL_CONNECTIONS, server.pid));
          trivial.push(wrk(fastifyUrl, SMALL_CONNECTIONS, fastify.pid));
        }
        // The profiler slows the server: its row is one more, after the rounds, not reported.
        if (CPU_PROF) {
          process.kill(server.pid, 'SIGUSR2');
          wrk(`${server.url}/${codes['small.bin']}`, SMALL_CONNECTIONS, server.pid);
          process.kill(server.pid, 'SIGUSR2');
        }
        const nginxSmall = wrk(`${nginxBase}/small.bin`, SMALL_CONNECTIONS, nginx.pid);
        const shares = rounds.map((m, i) => m.rps / ((trivial[i]!.rps + trivial[i + 1]!.rps) / 2));
        console.log(`    10 KiB, ${SMALL_CONNECTIONS} connections, ${ROUNDS} rounds`);
        console.log(`      trivial Fastify route ${rps(trivial[0]!)}  ${p99(trivial[0]!)}`);
        rounds.forEach((m, i) => {
          console.log(
            `      Upshot                ${rps(m)}  ${p99(m)}  ${pct(shares[i]!, 1)} of the trivial route`,
          );
          console.log(
            `      trivial Fastify route ${rps(trivial[i + 1]!)}  ${p99(trivial[i + 1]!)}`,
          );
        });
        console.log(`      nginx                 ${rps(nginxSmall)}  ${p99(nginxSmall)}`);
        console.log(
          `      Upshot: ${pct(median(shares), 1)} of the trivial route (median of ${ROUNDS} rounds: ` +
            `${shares.map((s) => pct(s, 1)).join(', ')}), p99 ${fmt(median(rounds.map((m) => m.p99ms)), 2)} ms ` +
            `(worst ${fmt(Math.max(...rounds.map((m) => m.p99ms)), 2)} ms), ` +
            `${pct(median(rounds.map((m) => m.rps)), nginxSmall.rps)} of nginx`,
        );
        let large: Measure | null = null;
        if (!SMALL_ONLY) {
          const nginxLarge = wrk(`${nginxBase}/large.bin`, LARGE_CONNECTIONS, nginx.pid);
          large = wrk(`${server.url}/${codes['large.bin']}`, LARGE_CONNECTIONS, server.pid);
          console.log(`    100 MiB, ${LARGE_CONNECTIONS} connections`);
          console.log(`      nginx                 ${mibps(nginxLarge)}  ${p99(nginxLarge)}`);
          console.log(
            `      Upshot                ${mibps(large)}  ${p99(large)}  ` +
              `${pct(large.mibps, nginxLarge.mibps)} of nginx`,
          );
        }
        // Every view is counted: at least one per answer wrk received (views may be committed
        // a moment after their answer).
        const answered =
          rounds.reduce((sum, m) => sum + m.requests, 0) + (large?.requests ?? 0) + warmUp.requests;
        let views = 0;
        for (let i = 0; i < 50 && views < answered; i++) {
          if (i > 0) await new Promise((r) => setTimeout(r, 100));
          // wrk runs synchronously, so fetch's keep-alive timers wait behind it: a pooled
          // connection may be one the server has closed after its idle timeout. Asked again.
          const stats = await fetch(`${server.url}/api/stats`, {
            headers: { authorization: `Bearer ${token}` },
          })
            .then((r) => r.json() as Promise<{ totalViews: number }>)
            .catch(() => null);
          views = stats?.totalViews ?? views;
        }
        if (views < answered) throw new Error(`${views} views counted for ${answered} answers`);
        console.log(`    views counted: ${views} for ${answered} answers`);
      } finally {
        await server.stop();
      }
    },
    { postgres: 'postgres://postgres@127.0.0.1:5432/postgres' },
  );
} finally {
  await fastify.stop();
  await nginx.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
