/**
 * A chunked upload's type is sniffed from its joined bytes, as a simple upload's is from its
 * stream: a claimed picture, video or sound that begins with markup is stored, and served, as
 * the markup it is (an attachment), whatever order its chunks came in.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completeChunked,
  sendChunk,
  sliceOf,
  startChunked,
} from '../../../test/chunked-uploads.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { HOSTILE_FILES } from '../../../test/hostile-files.ts';
import { signIn } from '../../../test/users.ts';

const SMALL = 64 * 1024;
let ctx: TestContext;
let auth: Record<string, string>;
beforeAll(async () => {
  ctx = await createTestContext({}, {}, { chunkSize: SMALL });
  ({ auth } = await signIn(ctx));
});
afterAll(() => ctx.close());

/** Uploads `data` in chunks, the last one first; answers the upload and its served headers. */
async function chunked(filename: string, mimeType: string, data: Buffer) {
  const id = await startChunked(ctx, auth, data, SMALL, { filename, mimeType });
  const count = Math.ceil(data.length / SMALL);
  for (let i = count - 1; i >= 0; i--) {
    const res = await sendChunk(ctx, auth, id, i, sliceOf(data, i, SMALL));
    expect(res.statusCode, res.body).toBe(204);
  }
  const done = await completeChunked(ctx, auth, id);
  expect(done.statusCode, done.body).toBe(201);
  const upload = done.json<{ upload: { shortCode: string; mimeType: string } }>().upload;
  const served = await ctx.app.inject({ method: 'GET', url: `/${upload.shortCode}` });
  expect(served.statusCode).toBe(200);
  expect(served.rawPayload.equals(data)).toBe(true);
  return { upload, headers: served.headers };
}

// Markup claimed (or named) as a picture, a video or a sound.
const SNIFFED = HOSTILE_FILES.filter(
  (f) => /^(image|video|audio)\//.test(f.claimed ?? '') && !f.served.startsWith(f.claimed ?? ''),
);

describe('chunked uploads of markup under a picture, video or sound type', () => {
  it('covers the markup files of the hostile list', () => {
    expect(SNIFFED.map((f) => f.filename)).toEqual(
      expect.arrayContaining(['shot.png', 'sticker.webp', 'photo.jpg', 'song.mp3', 'clip.mp4']),
    );
  });

  it.each(SNIFFED)('$name is stored as $served, an attachment', async (file) => {
    // Two chunks: the markup is all in the first, which is sent last.
    const data = Buffer.concat([Buffer.from(file.body, 'latin1'), Buffer.alloc(SMALL, 0x20)]);
    const { upload, headers } = await chunked(file.filename, file.claimed ?? '', data);
    expect(upload.mimeType).toBe(file.served.split(';')[0]);
    expect(headers['content-type']).toBe(file.served);
    expect(String(headers['content-disposition'])).toMatch(/^attachment;/);
  });

  it('keeps the claim of a real picture, shown inline', async () => {
    const png = await sharp({
      create: { width: 200, height: 200, channels: 3, background: '#3a7' },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(png.length).toBeGreaterThan(SMALL);
    const { upload, headers } = await chunked('real.png', 'image/png', png);
    expect(upload.mimeType).toBe('image/png');
    expect(headers['content-type']).toBe('image/png');
    expect(String(headers['content-disposition'])).toMatch(/^inline;/);
  });
});
