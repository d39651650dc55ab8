/** Starts the real, built server as `npm start` does, on a free port and a temporary DATA_DIR. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error plain ESM helpers shared with `npm start`, no type declarations
import { ensureServerBuilt, serverNodeArgs } from '../../scripts/server-build.mjs';
// @ts-expect-error as above
import { ensureWebBuilt } from '../../scripts/web-build.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type RunningServer = {
  url: string;
  dataDir: string;
  pid: number;
  output: () => string;
  stop: () => Promise<void>;
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  (ensureWebBuilt as () => void)();
  const main = await (ensureServerBuilt as () => Promise<string>)();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const childEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    ...env,
  };
  const nodeArgs = (serverNodeArgs as () => string[])();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, main], {
    cwd: repoRoot,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 30_000);
    const check = () => {
      if (log.includes('Upshot is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${log}`));
    });
  });

  return {
    url,
    dataDir,
    pid: child.pid ?? 0,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
