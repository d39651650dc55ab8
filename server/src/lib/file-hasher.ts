/**
 * Hashes committed files on a worker thread (hash-worker.ts) that reads them itself, so a large
 * upload's SHA-256 costs the request nothing and runs beside the next one, at the lowest CPU
 * priority. The worker is started on demand and stopped when idle, to give its memory back.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HashReply } from './hash-worker.ts';

/**
 * The worker is hash-worker.ts. Bundled (npm start), it sits beside this file as
 * hash-worker.js; run from source (tests, tsx), the worker registers tsx to load the .ts file.
 */
function startWorker(): Worker {
  const limits = { resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 } };
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./hash-worker.js', import.meta.url), limits);
  }
  const file = fileURLToPath(new URL('./hash-worker.ts', import.meta.url));
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const boot = `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(file)});`;
  return new Worker(boot, { ...limits, eval: true });
}

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
    const w = startWorker();
    w.on('message', (m: HashReply) => {
      const entry = waiting.get(m.id);
      waiting.delete(m.id);
      if ('hex' in m) entry?.resolve(m.hex);
      else entry?.reject(new Error(m.error));
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
    /** Stops the worker; what is still waiting for a digest fails (its task is retried). */
    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      const w = worker;
      failAll(new Error('the server is shutting down'));
      if (w) await w.terminate();
    },
  };
}
