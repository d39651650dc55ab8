/** Uploads for API tests: multipart bodies, uploads over HTTP, rows written directly, videos. */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NewUploadRow } from '../src/db/schema.ts';
import type { TestContext } from './context.ts';

/** A multipart/form-data body: the fields in order, then the file part. */
export function multipart(
  fields: Record<string, string>,
  file?: { field?: string; filename: string; contentType?: string; data: Buffer },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----upshot${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\n` +
          `content-type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function uploadFile(
  ctx: TestContext,
  auth: Record<string, string>,
  file: { filename: string; contentType?: string; data: Buffer },
  fields: Record<string, string> = {},
) {
  const body = multipart(fields, file);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/upload',
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  });
}

/**
 * An uploads row to insert straight into the table (many rows, or rows that predate a
 * migration), with every column filled; `fields` overrides any of them.
 */
export function uploadRow(userId: string, fields: Partial<NewUploadRow> = {}): NewUploadRow {
  const id = crypto.randomUUID();
  return {
    id,
    user_id: userId,
    original_filename: 'file.png',
    mime_type: 'image/png',
    file_type: 'images',
    size: 1,
    sha256: null,
    views: 0,
    short_code: id.replace(/-/g, '').slice(0, 12),
    vanity_url: null,
    is_public: 1,
    storage_key: `u/00/00/${id.replace(/-/g, '')}`,
    thumbnail_status: 'none',
    thumbnail_key: null,
    created_at: new Date().toISOString(),
    ...fields,
  };
}

/** The ids of a user's upload rows. */
export async function uploadIdsOf(ctx: TestContext, userId: string): Promise<string[]> {
  const rows = await ctx.handle.db
    .selectFrom('uploads')
    .select('id')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.id);
}

/** A user's disk_used, in bytes. */
export async function diskUsedOf(ctx: TestContext, userId: string): Promise<number> {
  const row = await ctx.handle.db
    .selectFrom('users')
    .select('disk_used')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.disk_used);
}

/** An upload's committed view count (as it is in the table, without flushing pending views). */
export async function viewsOf(ctx: TestContext, uploadId: string): Promise<number> {
  const row = await ctx.handle.db
    .selectFrom('uploads')
    .select('views')
    .where('id', '=', uploadId)
    .executeTakeFirstOrThrow();
  return Number(row.views);
}

/**
 * A 640x360 test-pattern video made by ffmpeg (which the caller checked is there): an MP4 by
 * default, whose index (moov) comes after the frames, so reading it means seeking.
 */
export function testVideo(
  options: { seconds?: number; format?: 'mp4' | 'mpegts'; size?: string } = {},
): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-video-'));
  const file = path.join(dir, 'video');
  try {
    // A large frame size: one black frame, encoded as fast as it goes (16000x16000 takes
    // about 2 GiB and a few seconds to encode, once).
    const source = options.size
      ? ['-f', 'lavfi', '-i', `color=c=black:size=${options.size}:rate=1`, '-frames:v', '1']
      : ['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=10', '-t', String(options.seconds ?? 2)];
    execFileSync('ffmpeg', [
      ...['-v', 'error', ...source, '-pix_fmt', 'yuv420p'],
      ...(options.size ? ['-c:v', 'libx264', '-preset', 'ultrafast'] : []),
      ...['-f', options.format ?? 'mp4', file],
    ]);
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** An HLS playlist (what a "video" must never make ffmpeg follow) of one segment at this address. */
export function hlsPlaylist(segment: string): Buffer {
  const lines = ['#EXTM3U', '#EXT-X-TARGETDURATION:2', '#EXTINF:2,', segment, '#EXT-X-ENDLIST'];
  return Buffer.from(`${lines.join('\n')}\n`);
}
