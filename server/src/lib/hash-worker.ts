/**
 * The worker thread behind file-hasher.ts: SHA-256 of files it reads itself, at the lowest CPU
 * priority, with one reused buffer and synchronous reads (this thread does nothing else), so
 * its heap stays a few megabytes whatever the file size.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';

export type HashRequest = { id: number; file: string };
export type HashReply = { id: number; hex: string } | { id: number; error: string };

// Lowest priority for this thread only (Linux names its task id in /proc/thread-self), so
// hashing takes the CPU time requests leave over.
try {
  os.setPriority(Number(fs.readlinkSync('/proc/thread-self').split('/').pop()), 19);
} catch {
  // not Linux, or not allowed: run at normal priority
}

const buffer = Buffer.allocUnsafe(1024 * 1024);

function sha256(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const hash = crypto.createHash('sha256');
    for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0;) {
      hash.update(buffer.subarray(0, n));
    }
    return hash.digest('hex');
  } finally {
    fs.closeSync(fd);
  }
}

parentPort?.on('message', ({ id, file }: HashRequest) => {
  let reply: HashReply;
  try {
    reply = { id, hex: sha256(file) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply);
});
