/**
 * The process guard on the real server (boot, then serve, as main.ts runs them; with two routes
 * more, test/guard-instance.ts): an unhandled rejection is logged with its request's id and the
 * process goes on; an uncaught exception is logged with its request's id, then the server stops
 * accepting, answers what is in flight, and exits 1 for its supervisor.
 */
import net from 'node:net';
import { afterAll, expect, it, vi } from 'vitest';
import { testEngine } from '../../test/context.ts';
import { startProcess, freePort, killGroup, tempDir } from '../../test/live-server.ts';

const serverDir = new URL('../../', import.meta.url).pathname;
let proc: ReturnType<typeof startProcess> | null = null;
afterAll(() => {
  if (proc) killGroup(proc.child);
});

/** The JSON log lines printed so far. */
const logLines = () =>
  proc!
    .output()
    .stdout.split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

it.runIf(testEngine === 'sqlite')(
  'logs a rejection and goes on; after an escaped error, drains and exits 1',
  async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    proc = startProcess(process.execPath, ['--import', 'tsx', 'test/guard-instance.ts'], {
      cwd: serverDir,
      env: {
        PORT: String(port),
        PUBLIC_URL: base,
        DATA_DIR: tempDir('upshot-guard-'),
        SHUTDOWN_TIMEOUT_MS: '5000',
      },
    });
    await vi.waitFor(() => expect(proc!.output().stdout).toContain('Upshot is listening'), {
      timeout: 30_000,
    });

    const rejected = await fetch(`${base}/test/reject`, { headers: { 'x-request-id': 'rej-1' } });
    expect(rejected.status).toBe(200);
    await vi.waitFor(() =>
      expect(logLines().find((l) => l.msg === 'unhandled rejection')).toMatchObject({
        reqId: 'rej-1',
        err: { message: 'rejected after its request' },
      }),
    );
    expect((await fetch(`${base}/api/health`)).status).toBe(200);

    // A request in flight when the error escapes is still answered.
    const slow = fetch(`${base}/test/slow`);
    const escaped = await fetch(`${base}/test/escape`, { headers: { 'x-request-id': 'esc-1' } });
    expect(escaped.status).toBe(200);
    await vi.waitFor(() => expect(logLines().some((l) => l.msg === 'shutting down')).toBe(true));
    // It stops accepting: a new connection is refused.
    const refused = await new Promise<string | undefined>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(undefined);
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code));
    });
    expect(refused).toBe('ECONNREFUSED');
    const answered = await slow;
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ slow: 'but answered' });

    const run = await proc.done;
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const line = logLines().find((l) => l.msg === 'uncaught exception: shutting down');
    expect(line).toMatchObject({ reqId: 'esc-1', err: { message: 'escaped from its request' } });
    expect((line!.err as { stack: string }).stack).toContain('guard-instance.ts');
    expect(logLines().some((l) => l.msg === 'shut down')).toBe(true);
  },
  60_000,
);
