/**
 * The real server (boot, then serve, as main.ts runs them) with one route more, whose work
 * throws after its answer, outside any promise the request awaits, and one that waits a while
 * before answering: the process guard's test runs it as a child process.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { boot } from '../src/boot.ts';
import { stdoutLogStream } from '../src/lib/log-stream.ts';
import { serve } from '../src/serve.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-guard-'));
process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
const logStream = stdoutLogStream();
const booted = await boot(
  { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info', HOST: '127.0.0.1' },
  { logStream },
);
booted.app.get('/test/escape', async () => {
  const emitter = new EventEmitter();
  setTimeout(() => emitter.emit('error', new Error('escaped from its request')), 100);
  return { ok: true };
});
booted.app.get('/test/reject', async () => {
  setTimeout(() => void Promise.reject(new Error('rejected after its request')), 10);
  return { ok: true };
});
booted.app.get('/test/slow', async () => {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return { slow: 'but answered' };
});
await serve(booted, logStream);
