/**
 * Local-disk driver: DATA_DIR/files/<key>; writes go through DATA_DIR/tmp, fsync, rename. What
 * it creates is its own only (directories 0700, files 0600, whatever the umask); directories
 * that exist already keep their mode.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertValidKey, StorageSizeError, type ByteRange, type Storage } from './storage.ts';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/**
 * Write-behind: every this many bytes a data flush starts in the background while more bytes
 * arrive, so the disk works while the network does and the flush at the end is short.
 */
const FLUSH_EVERY_BYTES = 4 * 1024 * 1024;
/** Bytes buffered while a write is in flight; they go to the disk in one writev. */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/** Writes every byte of `buffers` at `position` (a regular file rarely takes less at once). */
async function writeFully(fh: fsp.FileHandle, buffers: Buffer[], position: number) {
  let total = 0;
  for (const b of buffers) total += b.length;
  let { bytesWritten } = await fh.writev(buffers, position);
  while (bytesWritten < total) {
    const rest = Buffer.concat(buffers).subarray(bytesWritten);
    const more = await fh.write(rest, 0, rest.length, position + bytesWritten);
    if (more.bytesWritten === 0) throw new Error('short write');
    bytesWritten += more.bytesWritten;
  }
  return total;
}

/**
 * A writable into `fh` from `start` that counts bytes, fails past `maxBytes`, and is durable
 * when it finishes: its final callback runs after fsync. Chunks that arrive while a write is in
 * flight are written together with writev (no copies). Flushes start in the background along
 * the way, one at a time, so the kernel does not hold the whole file back until the end.
 */
function fileSink(fh: fsp.FileHandle, start: number, maxBytes: number, onTooLarge: () => Error) {
  let received = 0;
  let position = start;
  let unflushed = 0;
  let flushing: Promise<void> | null = null;
  let flushError: unknown = null;
  const startFlush = () => {
    unflushed = 0;
    flushing = fh
      .datasync()
      .catch((err: unknown) => {
        flushError ??= err;
      })
      .finally(() => {
        flushing = null;
      });
  };
  const write = (buffers: Buffer[], cb: (err?: Error | null) => void) => {
    if (flushError) return cb(flushError as Error);
    for (const b of buffers) received += b.length;
    if (received > maxBytes) return cb(onTooLarge());
    writeFully(fh, buffers, position).then((n) => {
      position += n;
      unflushed += n;
      if (unflushed >= FLUSH_EVERY_BYTES && !flushing) startFlush();
      cb();
    }, cb);
  };
  const writable = new Writable({
    highWaterMark: WRITE_BUFFER_BYTES,
    write: (chunk: Buffer, _enc, cb) => write([chunk], cb),
    writev: (chunks, cb) =>
      write(
        chunks.map((c) => c.chunk as Buffer),
        cb,
      ),
    final(cb) {
      Promise.resolve(flushing)
        .then(() => {
          if (flushError) throw flushError;
          return fh.sync();
        })
        .then(() => cb(), cb);
    },
  });
  return { writable, size: () => received };
}

/**
 * Streams `body` into `file` from `start`, durably, and answers the byte count; the file
 * handle is always closed.
 */
async function writeDurably(
  file: string,
  flags: string,
  start: number,
  body: Readable,
  maxBytes: number,
  onTooLarge: () => Error,
): Promise<number> {
  const fh = await fsp.open(file, flags, FILE_MODE);
  try {
    const sink = fileSink(fh, start, maxBytes, onTooLarge);
    await pipeline(body, sink.writable);
    return sink.size();
  } finally {
    await fh.close();
  }
}

/**
 * A whole-object write's temporary file is named after the process writing it: a digest of its
 * host's name, its pid and a token of this run. A process starting on a DATA_DIR removes those
 * a process that is gone left (killed mid-upload); several instances may share the directory
 * (PostgreSQL with local disk), so a file whose process is alive, or that another host wrote,
 * is left to the orphan sweep's age rule.
 */
const HOST = crypto.createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);
const RUN = crypto.randomBytes(4).toString('hex');
const TEMP_NAME = /^([0-9a-f]{8})-([0-9]+)-([0-9a-f]{8})-[0-9a-f]{32}\.part$/;

function temporaryName(): string {
  return `${HOST}-${process.pid}-${RUN}-${crypto.randomBytes(16).toString('hex')}.part`;
}

/** Whether the process that named this temporary file has ended (false when it cannot tell). */
function writerGone(name: string): boolean {
  const m = TEMP_NAME.exec(name);
  if (!m || m[1] !== HOST) return false;
  const pid = Number(m[2]);
  // This pid, another run: the process before a restart that gave this one its pid (a container's 1).
  if (pid === process.pid) return m[3] !== RUN;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Removes the temporary files of writes whose process has ended; answers their names. */
function removeAbandoned(tmpDir: string): string[] {
  const gone = fs.readdirSync(tmpDir).filter(writerGone);
  for (const name of gone) fs.rmSync(path.join(tmpDir, name), { force: true });
  return gone;
}

/** The read stream's buffer size for get(). */
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
  fs.mkdirSync(root, { recursive: true, mode: DIR_MODE });
  fs.mkdirSync(multipartDir, { recursive: true, mode: DIR_MODE });
  removeAbandoned(tmpDir);
  const filePath = (key: string) => {
    assertValidKey(key);
    return path.join(root, key);
  };
  const multipartPath = (id: string) => {
    if (!/^[a-f0-9]{32}$/.test(id)) throw new Error('invalid multipart id');
    return path.join(multipartDir, id);
  };

  async function sizeOf(key: string): Promise<number | null> {
    try {
      return (await fsp.stat(filePath(key))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** Moves a finished temporary file into place, durably. */
  async function commit(tmp: string, key: string): Promise<void> {
    const dest = filePath(key);
    await fsp.mkdir(path.dirname(dest), { recursive: true, mode: DIR_MODE });
    await fsp.rename(tmp, dest);
    await fsyncPath(path.dirname(dest), 'r');
  }

  return {
    root,
    tmpDir,

    async check() {
      // An unmounted or removed volume leaves these gone: every key would read as missing.
      for (const dir of [root, multipartDir]) {
        if (!(await fsp.stat(dir)).isDirectory()) throw new Error(`${dir} is not a directory`);
        await fsp.access(dir, fs.constants.R_OK | fs.constants.W_OK);
      }
    },

    async put(key, body, options = {}) {
      filePath(key);
      const tmp = path.join(tmpDir, temporaryName());
      try {
        const size = await writeDurably(
          tmp,
          'wx',
          0,
          body,
          options.maxBytes ?? Number.MAX_SAFE_INTEGER,
          () => new StorageSizeError('File is larger than allowed', 'too_large'),
        );
        await commit(tmp, key);
        return { size };
      } catch (err) {
        await fsp.rm(tmp, { force: true });
        throw err;
      }
    },

    async get(key, range?: ByteRange) {
      // Open first so a missing file fails here, not later inside the response stream.
      const fh = await fsp.open(filePath(key), 'r');
      return fh.createReadStream({ ...(range ?? {}), highWaterMark: READ_CHUNK_BYTES });
    },

    async read(key, range) {
      // Synchronous: for a small body, one read costs less than three thread-pool round trips.
      const buf = Buffer.allocUnsafe(range.end - range.start + 1);
      const fd = fs.openSync(filePath(key), 'r');
      try {
        let n = 0;
        while (n < buf.length) {
          const got = fs.readSync(fd, buf, n, buf.length - n, range.start + n);
          if (got === 0) break; // the file ends early
          n += got;
        }
        return buf.subarray(0, n);
      } finally {
        fs.closeSync(fd);
      }
    },

    size: sizeOf,

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
      await fsp.writeFile(multipartPath(id), '', { flag: 'wx', mode: FILE_MODE });
      return id;
    },

    async putPart(multipartId, key, part, body) {
      filePath(key);
      const p = multipartPath(multipartId);
      // Written in place at its offset ('r+' keeps the other parts); a part sent again overwrites itself.
      const size = await writeDurably(
        p,
        'r+',
        part.offset,
        body,
        part.size,
        () =>
          new StorageSizeError(
            `Chunk ${part.index} is larger than ${part.size} bytes`,
            'wrong_size',
          ),
      );
      if (size !== part.size) {
        throw new StorageSizeError(
          `Chunk ${part.index} must be ${part.size} bytes; received ${size}`,
          'wrong_size',
        );
      }
      // Parts are written in place in one file: nothing to give back at completion.
      return '';
    },

    // The file holds the parts where they belong already; its size is checked, not the list.
    async completeMultipart(multipartId, key, _parts, totalSize) {
      const p = multipartPath(multipartId);
      const stat = await fsp.stat(p).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null;
        throw err;
      });
      if (!stat) {
        // Completed by an earlier call whose answer was lost: the object is in place.
        if ((await sizeOf(key)) === totalSize) return;
        throw Object.assign(new Error(`multipart upload ${multipartId} not found`), {
          code: 'ENOENT',
        });
      }
      const { size } = stat;
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

    async removeAbandonedMultipart(before, inUse) {
      const removed: string[] = [];
      for (const name of await fsp.readdir(multipartDir)) {
        if (inUse.has(name)) continue;
        const stat = await fsp.stat(path.join(multipartDir, name)).catch(() => null);
        if (stat?.isFile() && stat.mtime < before) {
          await fsp.rm(path.join(multipartDir, name), { force: true });
          removed.push(name);
        }
      }
      return removed;
    },

    async removeTemporary(before) {
      const removed: string[] = [];
      for (const name of await fsp.readdir(tmpDir)) {
        if (!name.endsWith('.part')) continue;
        const p = path.join(tmpDir, name);
        const stat = await fsp.stat(p).catch(() => null);
        if (stat?.isFile() && stat.mtime < before) {
          await fsp.rm(p, { force: true });
          removed.push(name);
        }
      }
      return removed;
    },
    localPath(key) {
      return filePath(key);
    },

    async presignedGet(key) {
      filePath(key);
      return null;
    },
  };
}
