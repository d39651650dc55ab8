/**
 * Video thumbnails cost a bounded amount of memory, whoever asks for them: a video whose frames
 * are 16000x16000 (about 1.9 GiB per ffmpeg run when decoded) is refused before any frame is
 * decoded, requests never start a decoder, and the background runner makes one at a time.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { testVideo, uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { ffmpegAvailable } from './thumbnails.ts';

const MiB = 1024 * 1024;

/** The summed resident memory of this process's child processes now, in bytes. */
function childrenRss(): number {
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid) continue;
      total += Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      // Ended between the listing and the read.
    }
  }
  return total;
}

describe.skipIf(!ffmpegAvailable() || !ffmpegAvailable('ffprobe'))(
  'thumbnails of videos with huge frames',
  () => {
    let ctx: TestContext;
    let huge: Buffer;
    beforeAll(async () => {
      ctx = await createTestContext();
      huge = testVideo({ size: '16000x16000' });
    }, 60_000);
    afterAll(() => ctx?.close());

    it('four requested at once keep the thumbnail children under 600 MiB, and none is made', async () => {
      const { auth } = await signIn(ctx);
      let peak = 0;
      const sampler = setInterval(() => {
        peak = Math.max(peak, childrenRss());
      }, 10);
      try {
        const codes: { id: string; shortCode: string }[] = [];
        for (let i = 0; i < 4; i++) {
          const res = await uploadFile(ctx, auth, {
            filename: `huge-${i}.mp4`,
            contentType: 'video/mp4',
            data: huge,
          });
          expect(res.statusCode, res.body).toBe(201);
          codes.push(res.json().upload);
        }
        const answers = await Promise.all(
          codes.map((c) => ctx.app.inject({ method: 'GET', url: `/thumb/${c.shortCode}` })),
        );
        expect(answers.map((a) => a.statusCode)).toEqual([404, 404, 404, 404]);
        await ctx.background.drain();
        const rows = await ctx.handle.db
          .selectFrom('uploads')
          .select('thumbnail_status')
          .where(
            'id',
            'in',
            codes.map((c) => c.id),
          )
          .execute();
        expect(rows.map((r) => r.thumbnail_status)).toEqual([
          'failed',
          'failed',
          'failed',
          'failed',
        ]);
      } finally {
        clearInterval(sampler);
      }
      expect(peak).toBeGreaterThan(0); // the children were seen
      expect(peak).toBeLessThan(600 * MiB);
    }, 120_000);
  },
);
