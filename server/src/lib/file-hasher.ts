/**
 * Hashes committed files on a worker thread that reads them itself, so a large upload's SHA-256
 * costs the request nothing and runs beside the next one. The worker is started on demand and
 * stopped when idle, to give its memory back.
 */
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const crypto = require('node:crypto');
const fs = require('node:fs');
parentPort.on('message', ({ id, file }) => {
  const hash = crypto.createHash('sha256');
  fs.createReadStream(file, { highWaterMark: 1024 * 1024 })
    .on('data', (chunk) => hash.update(chunk))
    .on('error', (err) => parentPort.postMessage({ id, error: String(err && err.message) }))
    .on('end', () => parentPort.postMessage({ id, hex: hash.digest('hex') }));
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
    const w = new Worker(WORKER_SOURCE, { eval: true });
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
