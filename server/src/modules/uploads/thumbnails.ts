/**
 * Thumbnails: a WebP of at most 400 px, made once with sharp (raster images) or from a video
 * frame grabbed by ffmpeg, kept in storage. Made only by a background task after the upload
 * (the runner takes one task at a time per process); a request for one not made yet answers
 * 404, so no request, anonymous or not, starts a decoder. A file that cannot be thumbnailed is
 * marked failed (its listing then offers no thumbnail).
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
/** The most pixels a source image or video frame may have: sharp's default limit, for both. */
export const MAX_SOURCE_PIXELS = 100_000_000;
/**
 * The address space each ffmpeg or ffprobe child may use. Past it an allocation fails and the
 * child exits: a 4K frame needs about a tenth of it; a frame past MAX_SOURCE_PIXELS is refused
 * before any is allocated, and this bounds what a decoder that ignores that limit could take.
 */
const CHILD_MEMORY_KIB = 1024 * 1024;

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

/** A thumbnail, and the size of what it shows (as shown: after its orientation), in pixels. */
type Rendered = { webp: Buffer; width: number; height: number };

async function toWebp(input: Readable): Promise<Rendered> {
  const sharp = await (sharpLoading ??= import('sharp').then((m) => m.default));
  const transformer = sharp({ failOn: 'error', limitInputPixels: MAX_SOURCE_PIXELS })
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
    // The source is read once: sharp keeps a piped input for the resize after this.
    const { autoOrient } = await transformer.metadata();
    const webp = await transformer.toBuffer();
    return { webp, width: autoOrient.width, height: autoOrient.height };
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
 * Runs ffmpeg or ffprobe with its address space capped (the shell's ulimit, then exec), killed
 * after FRAME_TIMEOUT_MS; resolves with its standard output (at most maxBytes) and exit code.
 */
function runBounded(
  command: string,
  args: string[],
  maxBytes: number,
): Promise<{ code: number | null; out: Buffer }> {
  return new Promise((resolve) => {
    const child = spawn(
      '/bin/sh',
      ['-c', `ulimit -v ${CHILD_MEMORY_KIB} && exec "$0" "$@"`, command, ...args],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) child.kill('SIGKILL');
      else chunks.push(c);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), FRAME_TIMEOUT_MS);
    child.on('error', () => resolve({ code: null, out: Buffer.alloc(0) }));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out: size > maxBytes ? Buffer.alloc(0) : Buffer.concat(chunks) });
    });
  });
}

/** What both tools may read an upload as, and how large a frame they may decode. */
function inputArgs(input: string): string[] {
  const protocols = /^https?:\/\//.test(input) ? 'http,https,tcp,tls' : 'file';
  return [
    ...['-v', 'error', '-threads', '1', '-max_pixels', String(MAX_SOURCE_PIXELS)],
    ...['-format_whitelist', VIDEO_FORMATS, '-protocol_whitelist', protocols],
  ];
}

/**
 * The video's frame size, probed before anything is decoded for a thumbnail; null when ffprobe
 * cannot tell (not a video it may read, or a frame past MAX_SOURCE_PIXELS, which it refuses).
 */
async function probeFrameSize(
  ffprobe: string,
  input: string,
): Promise<{ width: number; height: number } | null> {
  const { code, out } = await runBounded(
    ffprobe,
    [
      ...inputArgs(input),
      ...['-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0'],
      input,
    ],
    4096,
  );
  const m = /^(\d+),(\d+)/.exec(out.toString('latin1').trim());
  if (code !== 0 || !m) return null;
  return { width: Number(m[1]), height: Number(m[2]) };
}

/** One PNG frame from a video, or null (no frame, ffmpeg failed or took too long). */
async function grabFrame(ffmpeg: string, input: string, atSeconds: number): Promise<Buffer | null> {
  const { code, out } = await runBounded(
    ffmpeg,
    [
      ...inputArgs(input),
      ...['-ss', String(atSeconds), '-i', input],
      ...['-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-'],
    ],
    64 * 1024 * 1024,
  );
  return code === 0 && out.length > 0 ? out : null;
}

/** ffprobe beside the ffmpeg command given (`ffmpeg` -> `ffprobe`, `/opt/ff/ffmpeg` -> `/opt/ff/ffprobe`). */
export function ffprobeBeside(ffmpeg: string): string {
  return ffmpeg.replace(/ffmpeg([^/]*)$/, 'ffprobe$1');
}

export type Thumbnailer = ReturnType<typeof createThumbnailer>;

export function createThumbnailer(deps: {
  storage: Storage;
  uploads: UploadsRepository;
  /** The ffmpeg and ffprobe commands; null: videos get no thumbnail. */
  video: { ffmpeg: string; ffprobe: string } | null;
  log: Logger;
}) {
  const { storage, uploads, video, log } = deps;

  async function fromVideo(row: UploadRow): Promise<Rendered | null> {
    if (!video) return null;
    // ffmpeg needs its input whole: the file on local disk, or a short-lived URL straight to
    // the object store, so a large video is never copied anywhere to grab one frame.
    const input =
      storage.localPath(row.storage_key) ??
      (await storage.presignedGet(row.storage_key, {
        expiresInSeconds: VIDEO_URL_SECONDS,
        contentType: row.mime_type,
        contentDisposition: 'inline',
      }));
    if (!input) return null;
    const size = await probeFrameSize(video.ffprobe, input);
    if (!size || size.width * size.height > MAX_SOURCE_PIXELS) {
      log.info({ uploadId: row.id, size }, 'no thumbnail: not a video frame within the limits');
      return null;
    }
    const frame =
      (await grabFrame(video.ffmpeg, input, 1)) ?? (await grabFrame(video.ffmpeg, input, 0));
    // The video's own size, not its frame's: a player shows the video at it.
    return frame ? { ...(await toWebp(Readable.from([frame]))), ...size } : null;
  }

  async function render(row: UploadRow): Promise<Rendered | null> {
    const mime = row.mime_type.toLowerCase();
    if (RASTER.has(mime)) return toWebp(await storage.get(row.storage_key));
    if (mime.startsWith('video/')) return fromVideo(row);
    return null;
  }

  return {
    /** What a new upload of this type starts as. */
    initialStatus(mimeType: string): ThumbnailStatus {
      const mime = mimeType.toLowerCase();
      return RASTER.has(mime) || (mime.startsWith('video/') && video) ? 'pending' : 'none';
    },

    /**
     * Makes and records the thumbnail of a pending upload (the background task); an upload
     * whose file cannot be thumbnailed is marked failed. A storage or sharp failure rejects,
     * to be retried by the task.
     */
    async make(row: UploadRow): Promise<void> {
      if (row.thumbnail_status !== 'pending') return;
      let made: Rendered | null;
      try {
        made = await render(row);
      } catch (err) {
        if (!(err instanceof UndecodableError)) throw err;
        log.info({ uploadId: row.id, reason: err.message }, 'no thumbnail: not a readable image');
        made = null;
      }
      if (!made) {
        await uploads.setThumbnailFailed(row.id);
        return;
      }
      const key = objectKey('t', newStorageId());
      await storage.put(key, Readable.from([made.webp]));
      // Deleted meanwhile: this one belongs to nobody.
      const size = { width: made.width, height: made.height };
      if (!(await uploads.setThumbnailReady(row.id, key, size))) await storage.delete(key);
    },
  };
}
