/**
 * Thumbnails: a WebP of at most 400 px, made once with sharp (raster images) or from a video
 * frame grabbed by ffmpeg, kept in storage. Made by a background task after the upload, or on
 * the first request for one that is still pending. A file that cannot be thumbnailed is
 * marked failed (its listing then offers no thumbnail), and no failure here reaches beyond a
 * 404.
 */
import { spawn, spawnSync } from 'node:child_process';
import { Readable } from 'node:stream';
import type SharpFn from 'sharp';
import type { ThumbnailStatus, UploadRow } from '../../db/schema.ts';
import { newStorageId } from '../../lib/files.ts';
import type { Logger } from '../../lib/logger.ts';
import { objectKey, type Storage } from '../../storage/storage.ts';
import type { UploadsRepository } from './repository.ts';

export const THUMBNAIL_MAX_PX = 400;

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

/** The file's bytes are not an image sharp can read: a fact about the file, not a failure. */
class UndecodableError extends Error {}

async function toWebp(input: Readable): Promise<Buffer> {
  const sharp = await (sharpLoading ??= import('sharp').then((m) => m.default));
  const transformer = sharp({ failOn: 'error', limitInputPixels: 100_000_000 })
    .rotate()
    .resize(THUMBNAIL_MAX_PX, THUMBNAIL_MAX_PX, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 });
  let readError: unknown = null;
  input.on('error', (err) => {
    readError = err;
    transformer.destroy(err);
  });
  input.pipe(transformer);
  try {
    return await transformer.toBuffer();
  } catch (err) {
    if (readError) throw readError; // storage failed: a real failure, retried by the task
    throw new UndecodableError(err instanceof Error ? err.message : String(err));
  } finally {
    input.destroy(); // sharp may stop reading early; the file handle goes either way
  }
}

/** How long one ffmpeg run may take before it is killed. */
const FRAME_TIMEOUT_MS = 20_000;
/**
 * Lifetime of the URL ffmpeg reads a video from on an object store: both tries (one second in,
 * then the first frame) with room to spare, and not much more (it is on ffmpeg's command line).
 */
const VIDEO_URL_SECONDS = 120;

/**
 * The containers ffmpeg may read an upload as (its demuxers' names). Never a playlist (HLS,
 * concat, ...): a "video" that is really a playlist would make ffmpeg read what it names, another
 * user's file on disk or any address the server can reach, and hand back a frame of it.
 */
const VIDEO_FORMATS = 'mov,matroska,avi,mpegts,flv,ogg,asf,mpeg,mpegvideo';

/**
 * One PNG frame from a video, or null (no frame, ffmpeg failed or took too long). The input is
 * a file, or an http(s) URL ffmpeg reads with range requests (seeking as it needs).
 */
function grabFrame(ffmpeg: string, input: string, atSeconds: number): Promise<Buffer | null> {
  const protocols = /^https?:\/\//.test(input) ? 'http,https,tcp,tls' : 'file';
  return new Promise((resolve) => {
    const child = spawn(
      ffmpeg,
      [
        ...['-v', 'error', '-format_whitelist', VIDEO_FORMATS, '-protocol_whitelist', protocols],
        ...['-ss', String(atSeconds), '-i', input],
        ...['-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-'],
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
    const timer = setTimeout(() => child.kill('SIGKILL'), FRAME_TIMEOUT_MS);
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
  log: Logger;
}) {
  const { storage, uploads, ffmpeg, log } = deps;
  // Requests for a thumbnail being made wait for the same work (per process).
  const inFlight = new Map<string, Promise<string | null>>();

  async function render(row: UploadRow): Promise<Buffer | null> {
    const mime = row.mime_type.toLowerCase();
    if (RASTER.has(mime)) return toWebp(await storage.get(row.storage_key));
    if (mime.startsWith('video/') && ffmpeg) {
      // ffmpeg needs its input whole: the file on local disk, or a short-lived URL straight
      // to the object store, so a large video is never copied anywhere to grab one frame.
      const input =
        storage.localPath(row.storage_key) ??
        (await storage.presignedGet(row.storage_key, {
          expiresInSeconds: VIDEO_URL_SECONDS,
          contentType: row.mime_type,
          contentDisposition: 'inline',
        }));
      if (!input) return null;
      const frame = (await grabFrame(ffmpeg, input, 1)) ?? (await grabFrame(ffmpeg, input, 0));
      return frame ? toWebp(Readable.from([frame])) : null;
    }
    return null;
  }

  /** Makes and records the thumbnail; null when none can be made (the upload is marked failed). */
  async function make(row: UploadRow, replaces: string | null): Promise<string | null> {
    let webp: Buffer | null;
    try {
      webp = await render(row);
    } catch (err) {
      // Anything but an unreadable image (storage, sharp itself) is a failure to retry.
      if (!(err instanceof UndecodableError)) throw err;
      log.info({ uploadId: row.id, reason: err.message }, 'no thumbnail: not a readable image');
      webp = null;
    }
    if (!webp) {
      await uploads.setThumbnailFailed(row.id);
      return null;
    }
    const key = objectKey('t', newStorageId());
    await storage.put(key, Readable.from([webp]));
    if (await uploads.setThumbnailReady(row.id, key, replaces)) return key;
    // Deleted meanwhile, or another request recorded one first: this one belongs to nobody.
    await storage.delete(key);
    const current = await uploads.findById(row.id);
    return current?.thumbnail_status === 'ready' ? current.thumbnail_key : null;
  }

  return {
    /** What a new upload of this type starts as. */
    initialStatus(mimeType: string): ThumbnailStatus {
      const mime = mimeType.toLowerCase();
      return RASTER.has(mime) || (mime.startsWith('video/') && ffmpeg) ? 'pending' : 'none';
    },

    /** The storage key of the upload's thumbnail, made now if needed; null when there is none. */
    async keyFor(row: UploadRow): Promise<string | null> {
      if (row.thumbnail_status === 'none' || row.thumbnail_status === 'failed') return null;
      let replaces: string | null = null;
      if (row.thumbnail_status === 'ready' && row.thumbnail_key) {
        if ((await storage.size(row.thumbnail_key)) !== null) return row.thumbnail_key;
        replaces = row.thumbnail_key; // recorded, but its object is gone: make it again
      }
      const running = inFlight.get(row.id);
      if (running) return running;
      const job = make(row, replaces).finally(() => inFlight.delete(row.id));
      inFlight.set(row.id, job);
      return job;
    },
  };
}
