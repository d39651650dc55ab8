/** Shared pieces of the benchmarks: the real server, sign-in, RSS sampling, timing. */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import pg from 'pg';

export { startServer } from '../../e2e/support/server.ts';

export const ADMIN = {
  email: 'bench@example.com',
  password: 'bench-password-1',
  username: 'bench',
};
export const BENCH_ENV = {
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  ADMIN_USERNAME: ADMIN.username,
  DEFAULT_QUOTA_BYTES: String(10 * 1024 ** 4),
  LOG_LEVEL: 'warn',
};

export async function signInToken(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** Samples a process's resident memory every 50 ms; peak() gives the highest seen, in bytes. */
export function rssSampler(pid: number) {
  let peak = 0;
  const read = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) * 1024);
    } catch {
      /* process gone */
    }
  };
  const timer = setInterval(read, 50);
  read();
  return {
    peak: () => peak,
    reset: () => {
      peak = 0;
      read();
    },
    stop: () => clearInterval(timer),
  };
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

export const MiB = 1024 * 1024;
export const mbps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);
export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/**
 * A file of random bytes (made once per run with dd, so it is not all zeros), flushed to disk
 * so that writing it back does not compete with what is measured next.
 */
export function makeRandomFile(file: string, bytes: number): void {
  execFileSync('dd', [
    'if=/dev/urandom',
    `of=${file}`,
    `bs=${MiB}`,
    `count=${Math.ceil(bytes / MiB)}`,
    'conv=fsync',
    'status=none',
  ]);
  fs.truncateSync(file, bytes);
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/**
 * Runs a benchmark on SQLite, then on a throwaway PostgreSQL database when BENCH_DATABASE_URL
 * or TEST_DATABASE_URL is set (or options.postgres, the server to use when neither is).
 * BENCH_PG_ONLY skips SQLite; BENCH_KEEP keeps the database.
 */
export async function onEachEngine(
  run: (label: string, databaseUrl: string | undefined) => Promise<void>,
  options: { postgres?: string } = {},
): Promise<void> {
  if (!process.env.BENCH_PG_ONLY) await run('SQLite', undefined);
  const pgAdmin =
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? options.postgres;
  if (!pgAdmin) {
    console.log('\n(PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return;
  }
  const name = `upshot_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgAdmin });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(pgAdmin);
  url.pathname = `/${name}`;
  try {
    await run('PostgreSQL', url.toString());
  } finally {
    if (process.env.BENCH_KEEP) console.log(`kept database ${name}`);
    else await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** POSTs a multipart body whose file part is `body` (`length` bytes). */
export function postFilePart(
  agent: http.Agent,
  url: string,
  token: string,
  fields: Record<string, string>,
  field: string,
  body: Readable,
  length: number,
): Promise<{ status: number; body: string }> {
  const boundary = `----bench${Date.now()}`;
  let head = '';
  for (const [k, v] of Object.entries(fields)) {
    head += `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  }
  head += `--${boundary}\r\ncontent-disposition: form-data; name="${field}"; filename="bench.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': Buffer.byteLength(head) + length + Buffer.byteLength(tail),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.write(head);
    body.on('error', reject);
    body.on('end', () => req.end(tail));
    body.pipe(req, { end: false });
  });
}

export async function postJson(url: string, token: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}
