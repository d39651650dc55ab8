/**
 * `npm start` starts the server again after it fails (scripts/supervise.mjs), with pauses that
 * grow, and stops when told to.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it, vi } from 'vitest';
import { repoRoot } from '../support/server.ts';

it('starts a failing process again after growing pauses, and passes SIGTERM on', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-supervise-'));
  try {
    const runs = path.join(dir, 'runs');
    // Fails on its first three runs; the fourth runs until it is told to stop, then exits 0.
    const child = `
      const fs = require('node:fs');
      fs.appendFileSync(${JSON.stringify(runs)}, Date.now() + '\\n');
      if (fs.readFileSync(${JSON.stringify(runs)}, 'utf8').trim().split('\\n').length < 4) process.exit(3);
      process.on('SIGTERM', () => process.exit(0));
      setInterval(() => {}, 1000);
    `;
    const supervisor = `
      import { supervise } from ${JSON.stringify(path.join(repoRoot, 'scripts/supervise.mjs'))};
      const code = await supervise(process.execPath, ['-e', ${JSON.stringify(child)}], {
        scale: 0.2,
        onRestart: (pause, status) => console.log('restart', pause, status),
      });
      console.log('ended', code);
      process.exit(code);
    `;
    const proc = spawn(process.execPath, ['--input-type=module', '-e', supervisor], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));

    const lines = () =>
      fs.existsSync(runs) ? fs.readFileSync(runs, 'utf8').trim().split('\n') : [];
    await vi.waitFor(() => expect(lines()).toHaveLength(4), { timeout: 10_000, interval: 50 });
    // Pauses of 1, 2 and 4 s, scaled by 0.2.
    expect(out).toContain('restart 200 3\nrestart 400 3\nrestart 800 3\n');
    const times = lines().map(Number);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(400);
    expect(times[3]! - times[2]!).toBeGreaterThanOrEqual(800);

    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('ended 0');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
