/**
 * Thumbnails: a WebP of at most 400 px, made once with sharp (raster images) or from a video
 * frame grabbed by ffmpeg, kept in storage. A file that cannot be thumbnailed is remembered as
 * such, and no failure here ever reaches beyond a 404.
 */
import { spawn, spawnSync } from 'node:child_process';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type SharpFn from 'sharp';
import type { UploadRow } from '../../db/schema.ts';
import { objectKey, type Storage } from '../../storage/storage.ts';
import type { UploadsRepository } from '../uploads/repository.ts';
import { newStorageId } from '../uploads/service.ts';

export const THUMBNAIL_MAX_PX = 400;
/** Stored in thumbnail_key when no thumbnail can be made, so it is not tried again. */
export const NO_THUMBNAIL = 'none';

const RASTER = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/tiff',
  'image/heif',
]);

export function ffmpegAvailable(command = 'ffmpeg'): boolean {
  try {
    return spawnSync(command, ['-version'], { stdio: 'ignore', timeout: 5000 }).status === 0;
  } catch {
    return false;
  }
}

/** sharp (libvips) is loaded on first use: it is large, and many instances never need it. */
type Sharp = typeof SharpFn;
let sharpLoading: Promise<Sharp> | null = null;

async function toWebp(input: Readable): Promise<Buffer> {
  const sharp = await (sharpLoading ??= import('sharp').then((m) => m.default));
  const transformer = sharp({ failOn: 'error', limitInputPixels: 100_000_000 })
    .rotate()
    .resize(THUMBNAIL_MAX_PX, THUMBNAIL_MAX_PX, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 });
  input.on('error', (err) => transformer.destroy(err));
  input.pipe(transformer);
  return transformer.toBuffer();
}

/** One PNG frame from a video file, or null (no frame, ffmpeg failed or took too long). */
function grabFrame(ffmpeg: string, file: string, atSeconds: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const child = spawn(
      ffmpeg,
      [
        '-v',
        'error',
        '-ss',
        String(atSeconds),
        '-i',
        file,
        '-frames:v',
        '1',
        '-f',
        'image2pipe',
        '-vcodec',
        'png',
        '-',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 64 * 1024 * 1024) child.kill('SIGKILL');
      else chunks.push(c);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 && size > 0 ? Buffer.concat(chunks) : null);
    });
  });
}

export type Thumbnailer = ReturnType<typeof createThumbnailer>;

export function createThumbnailer(deps: {
  storage: Storage;
  uploads: UploadsRepository;
  ffmpeg: string | null;
  log: FastifyBaseLogger;
}) {
  const { storage, uploads, ffmpeg, log } = deps;
  // Requests for a thumbnail being made wait for the same work (per process).
  const inFlight = new Map<string, Promise<string | null>>();

  async function render(row: UploadRow): Promise<Buffer | null> {
    const mime = row.mime_type.toLowerCase();
    if (RASTER.has(mime)) return toWebp(await storage.get(row.storage_key));
    if (mime.startsWith('video/') && ffmpeg) {
      const file = storage.localPath(row.storage_key);
      if (!file) return null;
      const frame = (await grabFrame(ffmpeg, file, 1)) ?? (await grabFrame(ffmpeg, file, 0));
      return frame ? toWebp(Readable.from([frame])) : null;
    }
    return null;
  }

  async function make(row: UploadRow): Promise<string | null> {
    let webp: Buffer | null = null;
    try {
      webp = await render(row);
    } catch (err) {
      log.warn({ err, uploadId: row.id }, 'thumbnail failed');
    }
    if (!webp) {
      await uploads.setThumbnailKey(row.id, NO_THUMBNAIL);
      return null;
    }
    const key = objectKey('t', newStorageId());
    await storage.put(key, Readable.from([webp]));
    await uploads.setThumbnailKey(row.id, key);
    return key;
  }

  return {
    /** The storage key of the upload's thumbnail, made now if needed; null when there is none. */
    async keyFor(row: UploadRow): Promise<string | null> {
      if (row.thumbnail_key === NO_THUMBNAIL) return null;
      if (row.thumbnail_key && (await storage.size(row.thumbnail_key)) !== null) {
        return row.thumbnail_key;
      }
      const running = inFlight.get(row.id);
      if (running) return running;
      const job = make(row).finally(() => inFlight.delete(row.id));
      inFlight.set(row.id, job);
      return job;
    },
  };
}
