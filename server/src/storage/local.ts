/** Local-disk driver: DATA_DIR/files/<key>; writes go through DATA_DIR/tmp, fsync, rename. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertValidKey, StorageSizeError, type ByteRange, type Storage } from './storage.ts';

/**
 * Counts bytes through a stream, fails past a ceiling, and hands them on in batches of about
 * 1 MiB, so the disk sees few large writes instead of many socket-sized ones.
 */
function byteLimiter(maxBytes: number, onTooLarge: () => Error) {
  let size = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > maxBytes) return cb(onTooLarge());
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= WRITE_BATCH_BYTES) {
        const batch = pending.length === 1 ? chunk : Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
        return cb(null, batch);
      }
      cb();
    },
    flush(cb) {
      cb(null, pendingBytes > 0 ? Buffer.concat(pending, pendingBytes) : undefined);
    },
  });
  return { transform, size: () => size };
}

const WRITE_BATCH_BYTES = 1024 * 1024;
/** Objects up to this size are read in one synchronous call (page-cache hot, microseconds). */
const SMALL_READ_BYTES = 128 * 1024;
const READ_CHUNK_BYTES = 256 * 1024;

async function fsyncPath(p: string, flags: string): Promise<void> {
  const fh = await fsp.open(p, flags);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export function createLocalStorage(dataDir: string): Storage & { root: string; tmpDir: string } {
  const root = path.resolve(dataDir, 'files');
  const tmpDir = path.resolve(dataDir, 'tmp');
  const multipartDir = path.join(tmpDir, 'multipart');
  fs.mkdirSync(root, { recursive: true });
  fs.mkdirSync(multipartDir, { recursive: true });
  // Whole-file writes left half-done by a crash: nothing refers to them.
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of fs.readdirSync(tmpDir)) {
    const p = path.join(tmpDir, name);
    if (name.endsWith('.part') && fs.statSync(p).mtimeMs < dayAgo) fs.rmSync(p, { force: true });
  }

  const filePath = (key: string) => {
    assertValidKey(key);
    return path.join(root, key);
  };
  const multipartPath = (id: string) => {
    if (!/^[a-f0-9]{32}$/.test(id)) throw new Error('invalid multipart id');
    return path.join(multipartDir, id);
  };

  /** Moves a finished temporary file into place, durably. */
  async function commit(tmp: string, key: string): Promise<void> {
    const dest = filePath(key);
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    await fsp.rename(tmp, dest);
    await fsyncPath(path.dirname(dest), 'r');
  }

  return {
    root,
    tmpDir,

    async put(key, body, options = {}) {
      filePath(key);
      const tmp = path.join(tmpDir, `${crypto.randomBytes(16).toString('hex')}.part`);
      const limit = byteLimiter(
        options.maxBytes ?? Number.MAX_SAFE_INTEGER,
        () => new StorageSizeError('File is larger than allowed', 'too_large'),
      );
      try {
        const out = fs.createWriteStream(tmp, { flags: 'wx' });
        await pipeline(body, limit.transform, out);
        await fsyncPath(tmp, 'r+');
        await commit(tmp, key);
        return { size: limit.size() };
      } catch (err) {
        await fsp.rm(tmp, { force: true });
        throw err;
      }
    },

    async get(key, range?: ByteRange, sizeHint?: number) {
      const p = filePath(key);
      const length = range ? range.end - range.start + 1 : sizeHint;
      if (length !== undefined && length <= SMALL_READ_BYTES) {
        // A small file is one read: cheaper done at once than as three thread-pool round trips.
        const fd = fs.openSync(p, 'r');
        try {
          const buf = Buffer.allocUnsafe(length);
          const n = fs.readSync(fd, buf, 0, length, range?.start ?? 0);
          return Readable.from([buf.subarray(0, n)]);
        } finally {
          fs.closeSync(fd);
        }
      }
      // Open first so a missing file fails here, not later inside the response stream.
      const fh = await fsp.open(p, 'r');
      return fh.createReadStream({ ...(range ?? {}), highWaterMark: READ_CHUNK_BYTES });
    },

    async size(key) {
      try {
        return (await fsp.stat(filePath(key))).size;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },

    async delete(key) {
      await fsp.rm(filePath(key), { force: true });
    },

    async *list() {
      for (const kind of await fsp.readdir(root).catch(() => [] as string[])) {
        for (const a of await fsp.readdir(path.join(root, kind)).catch(() => [] as string[])) {
          for (const b of await fsp.readdir(path.join(root, kind, a)).catch(() => [] as string[])) {
            const dir = path.join(root, kind, a, b);
            for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
              const stat = await fsp.stat(path.join(dir, name)).catch(() => null);
              if (stat?.isFile())
                yield { key: `${kind}/${a}/${b}/${name}`, modifiedAt: stat.mtime };
            }
          }
        }
      }
    },

    async createMultipart(key) {
      filePath(key);
      const id = crypto.randomBytes(16).toString('hex');
      await fsp.writeFile(multipartPath(id), '', { flag: 'wx' });
      return id;
    },

    async putPart(multipartId, key, part, body) {
      filePath(key);
      const p = multipartPath(multipartId);
      const limit = byteLimiter(
        part.size,
        () =>
          new StorageSizeError(
            `Chunk ${part.index} is larger than ${part.size} bytes`,
            'wrong_size',
          ),
      );
      // Written in place at its offset ('r+' keeps the other parts); a part sent again overwrites itself.
      const out = fs.createWriteStream(p, { flags: 'r+', start: part.offset });
      await pipeline(body, limit.transform, out);
      if (limit.size() !== part.size) {
        throw new StorageSizeError(
          `Chunk ${part.index} must be ${part.size} bytes; received ${limit.size()}`,
          'wrong_size',
        );
      }
      await fsyncPath(p, 'r+');
    },

    async completeMultipart(multipartId, key, totalSize) {
      const p = multipartPath(multipartId);
      const { size } = await fsp.stat(p);
      if (size !== totalSize) {
        throw new StorageSizeError(
          `Assembled file is ${size} bytes; expected ${totalSize}`,
          'wrong_size',
        );
      }
      await commit(p, key);
    },

    async abortMultipart(multipartId) {
      await fsp.rm(multipartPath(multipartId), { force: true });
    },

    async *listMultipart() {
      for (const name of await fsp.readdir(multipartDir)) {
        const stat = await fsp.stat(path.join(multipartDir, name)).catch(() => null);
        if (stat?.isFile()) yield { multipartId: name, modifiedAt: stat.mtime };
      }
    },

    localPath(key) {
      return filePath(key);
    },
  };
}
