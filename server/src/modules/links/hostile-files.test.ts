/**
 * Hostile files (test/hostile-files.ts: pages, scripts, SVG and XML that script, a PDF with
 * JavaScript, polyglots, an executable named .png, a text file claiming text/html and the other
 * way round, types in capitals or with parameters). Each is served, small or large, whole or as
 * HEAD, public or by a signed link, with the Content-Type expected, nosniff and the sandbox CSP;
 * anything a browser could run is an attachment; its thumbnail, if any, is a WebP. None is ever
 * sent as a page of the app's origin (e2e/tests/hostile-files.test.ts opens them in Chromium).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { HOSTILE_FILES, SCRIPTABLE_TYPE } from '../../../test/hostile-files.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { FILE_CSP, fileCsp } from './content-policy.ts';
import { SMALL_BODY_BYTES } from './service.ts';

let ctx: TestContext;
let owner: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signIn(ctx);
});
afterAll(() => ctx.close());

type Up = { id: string; shortCode: string; thumbnailUrl: string | null };

async function put(filename: string, type: string | undefined, data: Buffer, isPublic: boolean) {
  const res = await uploadFile(
    ctx,
    owner.auth,
    { filename, contentType: type ?? 'application/octet-stream', data },
    { isPublic: String(isPublic) },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ upload: Up }>().upload;
}

/** Problems with a served file's headers (an empty list when they are safe). */
function unsafe(
  headers: Record<string, unknown>,
  type: string,
  disposition: 'attachment' | 'inline',
): string[] {
  const problems: string[] = [];
  const contentType = String(headers['content-type']);
  const shown = String(headers['content-disposition']);
  if (contentType !== type) problems.push(`Content-Type ${contentType}, not ${type}`);
  if (!shown.startsWith(`${disposition};`)) problems.push(`Content-Disposition ${shown}`);
  if (SCRIPTABLE_TYPE.test(contentType) && !shown.startsWith('attachment;')) {
    problems.push(`${contentType} is shown inline`);
  }
  if (headers['x-content-type-options'] !== 'nosniff') problems.push('no nosniff');
  if (headers['content-security-policy'] !== fileCsp(type)) problems.push('not the sandbox CSP');
  return problems;
}

describe.each([
  ['small', 0],
  // Past the size read whole into memory: served by the streaming path.
  ['large', SMALL_BODY_BYTES + 1000],
])('%s hostile files', (_, padding) => {
  it.each(HOSTILE_FILES)(
    '$name ($filename, claiming $claimed) is served safely',
    async ({ filename, claimed, body, served, disposition }) => {
      const data = Buffer.concat([Buffer.from(body, 'latin1'), Buffer.alloc(padding, 0x20)]);
      const publicOne = await put(filename, claimed, data, true);
      const privateOne = await put(filename, claimed, data, false);
      await ctx.background.drain();
      const access = await ctx.app.inject({
        method: 'GET',
        url: `/api/uploads/${privateOne.id}/access-url`,
        headers: owner.auth,
      });
      const signed = new URL(access.json<{ url: string }>().url);

      const problems: string[] = [];
      const links = [
        ['public', `/${publicOne.shortCode}`],
        ['signed', `${signed.pathname}${signed.search}`],
      ];
      for (const [which, url] of links) {
        for (const method of ['GET', 'HEAD'] as const) {
          const res = await ctx.app.inject({ method, url });
          const label = `${method} ${which}`;
          if (res.statusCode !== 200) problems.push(`${label}: ${res.statusCode}`);
          if (method === 'GET' && !res.rawPayload.equals(data)) problems.push(`${label}: bytes`);
          problems.push(...unsafe(res.headers, served, disposition).map((p) => `${label}: ${p}`));
        }
      }
      // A thumbnail, if one was made at all, is a WebP picture, sandboxed like the file.
      const thumb = await ctx.app.inject({ method: 'GET', url: `/thumb/${publicOne.shortCode}` });
      if (thumb.statusCode === 200) {
        expect(thumb.headers['content-type']).toBe('image/webp');
        expect(thumb.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
        expect(thumb.headers['x-content-type-options']).toBe('nosniff');
        expect(thumb.headers['content-security-policy']).toBe(FILE_CSP);
      } else {
        expect(thumb.statusCode).toBe(404);
      }
      expect(problems).toEqual([]);
    },
  );
});

it('covers at least ten kinds of hostile file, every scriptable one an attachment', () => {
  expect(HOSTILE_FILES.length).toBeGreaterThanOrEqual(10);
  for (const { name, served, disposition } of HOSTILE_FILES) {
    if (SCRIPTABLE_TYPE.test(served)) expect(disposition, name).toBe('attachment');
  }
});
