/**
 * Real server processes for scale-out tests: `node --import tsx src/main.ts` (what `npm start
 * -w server` runs) on a port of its own, its output kept for failure messages; waits are for
 * conditions (a line printed, an exit), never fixed sleeps. Also a chunk sender that streams its
 * bytes over its own connection, and deterministic file contents made on the fly.
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { killGroup, startProcess, type Run } from './live-server.ts';

const serverDir = new URL('../', import.meta.url).pathname;

/** The "postgres" vitest project, with a PostgreSQL server to make databases on. */
export const onPostgres =
  process.env.UPSHOT_TEST_ENGINE === 'postgres' && Boolean(process.env.TEST_DATABASE_URL);

export type Instance = {
  name: string;
  url: string;
  child: ChildProcess;
  /** Settles when the process has ended. */
  done: Promise<Run>;
  output: () => { stdout: string; stderr: string };
  /** The output, labelled, for a failure message. */
  describe: () => string;
  /** Resolves once stdout holds `text`; rejects on exit or after timeoutMs, with the output. */
  waitForOutput: (text: string, timeoutMs: number) => Promise<void>;
  kill: (signal?: NodeJS.Signals) => Promise<Run>;
};

/** Starts one server process on `port` with exactly this environment (plus PATH). */
export function startInstance(name: string, port: number, env: Record<string, string>): Instance {
  const url = `http://127.0.0.1:${port}`;
  const proc = startProcess(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: url, ...env },
  });
  let exited: Run | null = null;
  const done = proc.done.then(
    (run) => (exited = run),
    (err: unknown) => {
      exited = { code: null, signal: null, stdout: '', stderr: String(err) };
      return exited;
    },
  );
  const describe = () => {
    const { stdout, stderr } = proc.output();
    const status = exited ? ` (exited: code ${exited.code}, signal ${exited.signal})` : '';
    return `--- instance ${name}${status} stdout:\n${stdout}\n--- instance ${name} stderr:\n${stderr}`;
  };
  return {
    name,
    url,
    child: proc.child,
    done,
    output: proc.output,
    describe,
    waitForOutput(text, timeoutMs) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!proc.output().stdout.includes(text)) return false;
          finish();
          resolve();
          return true;
        };
        const onExit = (
          code: number | null = exited?.code ?? null,
          signal: NodeJS.Signals | null = exited?.signal ?? null,
        ) => {
          if (check()) return;
          finish();
          reject(
            new Error(
              `instance ${name} ended (code ${code}, signal ${signal}) before printing "${text}"\n${describe()}`,
            ),
          );
        };
        const timer = setTimeout(() => {
          finish();
          reject(
            new Error(`instance ${name} did not print "${text}" in ${timeoutMs} ms\n${describe()}`),
          );
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          proc.child.stdout?.off('data', check);
          proc.child.off('close', onExit);
        };
        proc.child.stdout?.on('data', check);
        proc.child.on('close', onExit);
        if (!check() && exited) onExit();
      });
    },
    async kill(signal = 'SIGKILL') {
      if (!exited) killGroup(proc.child, signal);
      return done;
    },
  };
}

/** An answer read whole: its status, its text and (when it is JSON) its body. */
export type Answer<T = Record<string, unknown>> = { status: number; text: string; json: T };

/** A JSON (or empty) request to an instance; answers whatever status comes back. */
export async function call<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer<T>> {
  const res = await fetch(new URL(path, base), {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await res.text();
  let json = {} as T;
  try {
    json = JSON.parse(text) as T;
  } catch {
    // not JSON: the text says it
  }
  return { status: res.status, text, json };
}

/**
 * `length` bytes of a deterministic stream named by `seed`, from byte `offset` (a multiple of 16):
 * the AES-256-CTR key stream, so any range is made on its own, a MiB at a time.
 */
export async function* seededBytes(
  seed: string,
  offset: number,
  length: number,
): AsyncGenerator<Buffer> {
  if (offset % 16 !== 0) throw new Error('offset must be a multiple of 16');
  const key = crypto.createHash('sha256').update(seed).digest();
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(offset / 16), 8);
  const cipher = crypto.createCipheriv('aes-256-ctr', key, iv);
  const zeros = Buffer.alloc(1024 * 1024);
  for (let done = 0; done < length;) {
    const n = Math.min(zeros.length, length - done);
    yield cipher.update(zeros.subarray(0, n));
    done += n;
  }
}

/** The SHA-256 of seededBytes(seed, 0, size), computed as the bytes are made. */
export async function seededSha256(seed: string, size: number): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const piece of seededBytes(seed, 0, size)) hash.update(piece);
  return hash.digest('hex');
}

/**
 * POST /api/chunked-upload/chunk with the fields first and `size` bytes of `data` streamed as
 * the chunk, over a connection of its own. Resolves with the answer, and stops sending once it
 * has one (an early 409 does not make the client push the rest into the void); rejects when
 * the connection fails before an answer.
 */
export function postChunk(
  base: string,
  headers: Record<string, string>,
  uploadId: string,
  index: number,
  data: AsyncIterable<Buffer>,
  size: number,
): Promise<Answer> {
  const boundary = `----upshot${crypto.randomBytes(8).toString('hex')}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('uploadId', uploadId) +
      field('chunkIndex', String(index)) +
      `--${boundary}\r\ncontent-disposition: form-data; name="chunk"; filename="blob"\r\n` +
      'content-type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  // Keep-alive, as browsers and curl send it: with `Connection: close` the server closes the
  // connection after an early answer (a 409) while bytes still arrive, and the reset loses it.
  const agent = new http.Agent({ keepAlive: true });
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(new URL('/api/chunked-upload/chunk', base), {
      method: 'POST',
      agent,
      headers: {
        ...headers,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
      },
    });
    req.on('error', (err) => {
      agent.destroy();
      reject(err);
    });
    req.on('response', (res) => {
      const pieces: Buffer[] = [];
      res.on('data', (d: Buffer) => pieces.push(d));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(pieces).toString('utf8');
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // 204: no body
        }
        resolve({ status: res.statusCode ?? 0, text, json });
        req.destroy();
        agent.destroy();
      });
    });
    async function* body() {
      yield head;
      yield* data;
      yield tail;
    }
    // An error here after the answer (the request destroyed once answered) changes nothing.
    pipeline(Readable.from(body()), req).catch(reject);
  });
}
