/** Signed links open one resource each, and short codes and vanity URLs share one namespace. */
import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadSearch } from '../../db/search.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { uploadFile, uploadRow } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { createUploadsRepository } from '../uploads/repository.ts';
import { createLinksRepository } from './repository.ts';

let ctx: TestContext;
let owner: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signIn(ctx);
});
afterAll(() => ctx.close());

const local = (url: string) => url.replace(ctx.config.publicUrl, '');
const get = (url: string) => ctx.app.inject({ method: 'GET', url: local(url) });

async function privatePng() {
  const res = await uploadFile(
    ctx,
    owner.auth,
    {
      filename: 'secret.png',
      contentType: 'image/png',
      data: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#333' } })
        .png()
        .toBuffer(),
    },
    { isPublic: 'false' },
  );
  expect(res.statusCode).toBe(201);
  // Its thumbnail is made by the background runner.
  await ctx.background.drain();
  return res.json().upload as { id: string; shortCode: string; thumbnailUrl: string };
}

describe('a signature', () => {
  it('from a thumbnail link does not open the file (it served the private original)', async () => {
    const up = await privatePng();
    const query = new URL(up.thumbnailUrl).search;
    expect(query).toMatch(/^\?expires=\d+&signature=/);
    expect((await get(`/${up.shortCode}${query}`)).statusCode).toBe(404);
  });

  it('from a file link does not open the thumbnail, and each opens its own', async () => {
    const up = await privatePng();
    const access = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${up.id}/access-url`,
      headers: owner.auth,
    });
    const { url, thumbnailUrl } = access.json() as { url: string; thumbnailUrl: string };
    expect((await get(url)).statusCode).toBe(200);
    expect((await get(thumbnailUrl)).statusCode).toBe(200);
    const fileQuery = new URL(url).search;
    const thumbQuery = new URL(thumbnailUrl).search;
    expect(fileQuery).not.toBe(thumbQuery);
    expect((await get(`/thumb/${up.shortCode}${fileQuery}`)).statusCode).toBe(404);
    expect((await get(`/${up.shortCode}${thumbQuery}`)).statusCode).toBe(404);
  });
});

describe('short codes and vanity URLs', () => {
  it('a new short code equal to an existing vanity URL is refused and drawn again', async () => {
    const first = await uploadFile(ctx, owner.auth, { filename: 'a.txt', data: Buffer.from('a') });
    // A vanity URL of a short code's shape, made before such ones were refused.
    const firstId = first.json().upload.id as string;
    await ctx.handle.db
      .updateTable('uploads')
      .set({ vanity_url: 'Abc234' })
      .where('id', '=', firstId)
      .execute();
    await ctx.handle.db
      .insertInto('slugs')
      .values({ slug: 'abc234', upload_id: firstId, kind: 'vanity', owner_id: owner.user.id })
      .execute();

    const repo = createUploadsRepository(ctx.handle.db, uploadSearch(ctx.handle.dialect));
    const clash = uploadRow(owner.user.id, { short_code: 'abc234', size: 1 });
    expect(await repo.insertCharged(clash, [])).toBe('code-taken');
    // The link still serves the vanity's file, as before, and nothing was half-written.
    expect((await createLinksRepository(ctx.handle.db).findLink('abc234'))?.id).toBe(
      first.json().upload.id,
    );
    expect(await repo.findById(clash.id)).toBeUndefined();
  });

  it('a vanity URL equal to an existing short code is refused, in any case (its shape)', async () => {
    const a = await uploadFile(ctx, owner.auth, { filename: 'a.txt', data: Buffer.from('a') });
    const b = await uploadFile(ctx, owner.auth, { filename: 'b.txt', data: Buffer.from('b') });
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/uploads/${b.json().upload.id}`,
      headers: owner.auth,
      payload: { vanityUrl: a.json().upload.shortCode.toUpperCase() },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/must not look like a short code/);
  });

  it('concurrent claims of one vanity URL have exactly one winner', async () => {
    const ids = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const r = await uploadFile(ctx, owner.auth, {
          filename: `${i}.txt`,
          data: Buffer.from('x'),
        });
        return r.json().upload.id as string;
      }),
    );
    const wanted = `race-${crypto.randomBytes(3).toString('hex')}`;
    const results = await Promise.all(
      ids.map((id) =>
        ctx.app.inject({
          method: 'PATCH',
          url: `/api/uploads/${id}`,
          headers: owner.auth,
          payload: { vanityUrl: wanted },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
  });
});
