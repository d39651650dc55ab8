/**
 * Hashes committed files on a worker thread that reads them itself, so a large upload's SHA-256
 * costs the request nothing and runs beside the next one, at the lowest CPU priority. The
 * worker is started on demand and stopped when idle, to give its memory back.
 */
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
// Lowest CPU priority for this thread only (Linux: /proc/thread-self names its task id), so
// hashing takes the CPU time requests leave over.
try {
  os.setPriority(Number(fs.readlinkSync('/proc/thread-self').split('/').pop()), 19);
} catch {}
// One reused buffer and synchronous reads (this thread does nothing else): no garbage, so the
// worker's heap stays a few megabytes whatever the file size.
const buffer = Buffer.allocUnsafe(1024 * 1024);
parentPort.on('message', ({ id, file }) => {
  let fd = -1;
  try {
    fd = fs.openSync(file, 'r');
    const hash = crypto.createHash('sha256');
    for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; ) {
      hash.update(buffer.subarray(0, n));
    }
    parentPort.postMessage({ id, hex: hash.digest('hex') });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message) });
  } finally {
    if (fd >= 0) fs.closeSync(fd);
  }
});
`;

const IDLE_MS = 10_000;

export type FileHasher = { sha256(file: string): Promise<string>; close(): Promise<void> };

export function createFileHasher(): FileHasher {
  let worker: Worker | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (hex: string) => void; reject: (e: Error) => void }>();

  function failAll(err: Error) {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
    worker = null;
  }

  function ensureWorker(): Worker {
    if (idleTimer) clearTimeout(idleTimer);
    if (worker) return worker;
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
    });
    w.on('message', (m: { id: number; hex?: string; error?: string }) => {
      const entry = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.hex) entry?.resolve(m.hex);
      else entry?.reject(new Error(m.error ?? 'hashing failed'));
      if (waiting.size === 0) {
        w.unref();
        idleTimer = setTimeout(() => {
          if (waiting.size === 0 && worker === w) {
            worker = null;
            void w.terminate();
          }
        }, IDLE_MS);
        idleTimer.unref();
      }
    });
    w.on('error', failAll);
    w.on('exit', () => {
      if (worker === w) failAll(new Error('hash worker stopped'));
    });
    worker = w;
    return w;
  }

  return {
    sha256(file) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        const w = ensureWorker();
        w.ref();
        w.postMessage({ id, file });
      });
    },
    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
