import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it, vi } from 'vitest';

const script = fileURLToPath(new URL('../../test/guard-instance.ts', import.meta.url));
let output = '';
const child = spawn(process.execPath, ['--import', 'tsx', script], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
child.stdout.on('data', (d: Buffer) => (output += d.toString()));
child.stderr.on('data', (d: Buffer) => (output += d.toString()));
afterAll(() => {
  child.kill('SIGTERM');
});

it('logs an error that escapes a request with its stack, and keeps serving', async () => {
  await vi.waitFor(() => expect(output).toMatch(/LISTENING /), { timeout: 20_000 });
  const base = /LISTENING (\S+)/.exec(output)![1]!;
  const res = await fetch(`${base}/test/escape`);
  expect(res.status).toBe(200);
  await vi.waitFor(() => expect(output).toContain('escaped from its request'));
  const line = output
    .split('\n')
    .map((l) => (l.startsWith('{') ? (JSON.parse(l) as Record<string, unknown>) : null))
    .find((l) => l?.msg === 'uncaught exception kept from stopping the server');
  expect(line!.err).toMatchObject({ message: 'escaped from its request' });
  expect((line!.err as { stack: string }).stack).toContain('guard-instance.ts');
  expect(child.exitCode).toBeNull();
  expect((await fetch(`${base}/api/config`)).status).toBe(200);
});
