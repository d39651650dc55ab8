/**
 * A listening server for tests that drive it from another process (the upload scripts): a real
 * app on a free port whose PUBLIC_URL is that port, users with their API tokens, the scripts
 * downloaded as a user downloads them, and child processes run to their end.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createTestContext, type TestContext } from './context.ts';
import { createUser } from './users.ts';

type AppOptions = Parameters<typeof createTestContext>[2];

export type LiveServer = { ctx: TestContext; url: string; close: () => Promise<void> };

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The app listening on 127.0.0.1, its PUBLIC_URL the address it listens on. */
export async function startLiveServer(
  appOptions: AppOptions = {},
  env: Record<string, string> = {},
): Promise<LiveServer> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const ctx = await createTestContext({ ...env, PUBLIC_URL: url }, {}, appOptions);
    try {
      await ctx.app.listen({ host: '127.0.0.1', port });
      return { ctx, url, close: () => ctx.close() };
    } catch (err) {
      await ctx.close();
      // Another process took the port between the probe and the listen.
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 3) throw err;
    }
  }
}

/** A new user and their personal API token (what the downloaded scripts carry). */
export async function createTokenUser(
  ctx: TestContext,
  overrides: Parameters<typeof createUser>[1] = {},
) {
  const { row } = await createUser(ctx, overrides);
  const token = ctx.modules.users.service.revealApiToken(row);
  return { user: row, token, auth: { 'x-api-token': token } };
}

export type ScriptKind = 'bash-script' | 'powershell-script';

/** Downloads a user's script over HTTP as the Settings page does; answers its text. */
export async function downloadScript(
  server: LiveServer,
  userId: string,
  token: string,
  kind: ScriptKind,
): Promise<{ text: string; headers: Headers }> {
  const res = await fetch(`${server.url}/api/users/${userId}/${kind}`, {
    headers: { 'x-api-token': token },
  });
  // Decoded by hand: Response.text() would drop a byte-order mark.
  const text = Buffer.from(await res.arrayBuffer()).toString('utf8');
  if (res.status !== 200) throw new Error(`GET ${kind}: ${res.status} ${text}`);
  return { text, headers: res.headers };
}

/** A fresh temporary directory, removed by `removeAll`. */
export function tempDir(prefix = 'upshot-live-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes `size` random bytes to `file` in pieces (never whole in memory); answers their SHA-256. */
export async function writeRandomFile(file: string, size: number): Promise<string> {
  const hash = crypto.createHash('sha256');
  const piece = 4 * 1024 * 1024;
  async function* pieces() {
    for (let done = 0; done < size; done += piece) {
      const bytes = crypto.randomBytes(Math.min(piece, size - done));
      hash.update(bytes);
      yield bytes;
    }
  }
  await pipeline(Readable.from(pieces()), fs.createWriteStream(file));
  return hash.digest('hex');
}

export function sha256(data: Buffer): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

/** Fetches a link and hashes the body as it streams; answers the status, hash and length. */
export async function hashDownload(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; sha256: string; size: number }> {
  const res = await fetch(url, { headers });
  const hash = crypto.createHash('sha256');
  let size = 0;
  if (res.body) {
    for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(piece);
      size += piece.length;
    }
  }
  return { status: res.status, sha256: hash.digest('hex'), size };
}

export type Run = {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
};

/**
 * Starts a command in its own process group (so the group can be killed together), with only
 * the environment given (plus PATH). `done` settles when it ends.
 */
export function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): { child: ChildProcess; done: Promise<Run>; output: () => { stdout: string; stderr: string } } {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done, output: () => ({ stdout, stderr }) };
}

/** Kills a process started by startProcess and everything it started. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL') {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

export type Terminal = ReturnType<typeof startInTerminal>;

/**
 * Starts a command on a pseudo-terminal of its own (util-linux `script`), as a user runs it in
 * a terminal: /dev/tty opens, and what the test types arrives as keystrokes. Its stdout and
 * stderr come back together, as the terminal shows them (lines end in \r\n).
 */
export function startInTerminal(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
) {
  const quoted = [command, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-q', '-e', '-c', quoted, '/dev/null'], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      LANG: 'C.UTF-8',
      SHELL: '/bin/sh',
      ...options.env,
    },
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  const waiting = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    screen += d;
    for (const check of waiting) check();
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (screen += d));
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      for (const check of waiting) check();
      resolve({ code, signal, stdout: screen, stderr: '' });
    });
  });
  return {
    child,
    done,
    screen: () => screen,
    /** Resolves once the terminal shows `text` (rejects if the command ends first). */
    shows(text: string): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (screen.includes(text)) {
            waiting.delete(check);
            resolve();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiting.delete(check);
            reject(
              new Error(`the command ended without showing ${JSON.stringify(text)}:\n${screen}`),
            );
          }
        };
        waiting.add(check);
        check();
      });
    },
    /** Types on the terminal's keyboard. */
    type(text: string) {
      child.stdin?.write(text);
    },
  };
}

/**
 * A header value that reaches the server as the UTF-8 bytes of `value` (fetch sends each
 * character of a header value as one byte).
 */
export const utf8Header = (value: string) => Buffer.from(value, 'utf8').toString('latin1');

/** A user, their bash script downloaded over HTTP, and a home of their own to run it from. */
export async function bashScriptUser(server: LiveServer, root: string, username: string) {
  const account = await createTokenUser(server.ctx, { username });
  const { text } = await downloadScript(server, account.user.id, account.token, 'bash-script');
  const home = fs.mkdtempSync(path.join(root, 'home-'));
  for (const d of ['state', 'tmp', 'files']) fs.mkdirSync(path.join(home, d));
  const script = path.join(home, 'upshot.sh');
  fs.writeFileSync(script, text);
  fs.chmodSync(script, 0o755);
  const env = {
    HOME: home,
    XDG_STATE_HOME: path.join(home, 'state'),
    TMPDIR: path.join(home, 'tmp'),
  };
  return { ...account, home, script, env, files: path.join(home, 'files') };
}
export type ScriptUser = Awaited<ReturnType<typeof bashScriptUser>>;

/**
 * Wraps `commands` so that each logs its arguments before running the real one: put `path`
 * first in a child's PATH, then read `log()` to see every command line it ran.
 */
export function commandLineLog(dir: string, commands: string[]) {
  const bin = path.join(dir, 'bin');
  const log = path.join(dir, 'command-lines.log');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(log, '');
  const searchPath = process.env.PATH ?? '/usr/bin:/bin';
  for (const name of commands) {
    const real = execFileSync('sh', ['-c', `command -v ${name}`], {
      encoding: 'utf8',
      env: { PATH: searchPath },
    }).trim();
    fs.writeFileSync(
      path.join(bin, name),
      `#!/bin/sh\nprintf '%s\\n' "${name} $*" >>'${log}'\nexec '${real}' "$@"\n`,
      { mode: 0o755 },
    );
  }
  return { path: `${bin}:${searchPath}`, log: () => fs.readFileSync(log, 'utf8') };
}
