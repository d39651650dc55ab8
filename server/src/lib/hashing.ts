/**
 * SHA-256 of uploads. Small files are hashed as they stream in; on local disk, past
 * INLINE_HASH_LIMIT the hash is left to the hasher's thread after the bytes are committed,
 * because without CPU SHA extensions hashing runs slower than the disk and would halve upload
 * throughput (see docs/PERFORMANCE.md). Files bound for an object store are hashed inline
 * whatever their size (uploads/service.ts).
 */
import crypto from 'node:crypto';
import { Transform, type Readable } from 'node:stream';

export const INLINE_HASH_LIMIT = 16 * 1024 * 1024;

/** A pass-through that hashes its first `limit` bytes; digest() is null when it went past. */
export function inlineHasher(limit = INLINE_HASH_LIMIT) {
  let hash: crypto.Hash | null = crypto.createHash('sha256');
  let seen = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (hash && seen > limit) hash = null;
      hash?.update(chunk);
      cb(null, chunk);
    },
  });
  return { stream, digest: () => (hash ? hash.digest('hex') : null) };
}

export async function hashStream(input: Readable): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of input) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
