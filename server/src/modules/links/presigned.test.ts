/**
 * S3_SERVE=presigned, against s3rver: a link still checks access, conditional requests and
 * counts the view, then redirects to a short-lived presigned GET that answers the same bytes,
 * type and disposition straight from the store. HEAD, 304s, thumbnails, a PDF's framed copy and
 * everything that is refused stay with Upshot.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { startS3, type TestS3 } from '../../../test/s3.ts';
import { uploadFile, viewsOf } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { PRESIGNED_SECONDS } from './service.ts';

let s3: TestS3;
let ctx: TestContext;
let auth: Record<string, string>;
beforeAll(async () => {
  s3 = await startS3();
  const storage = await s3.storage();
  ctx = await createTestContext(
    {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: 'unused-the-storage-is-given',
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_SERVE: 'presigned',
    },
    {},
    { wrapStorage: () => storage },
  );
  ({ auth } = await signIn(ctx));
});
afterAll(async () => {
  await ctx?.close();
  await s3?.close();
});

async function upload(data: Buffer, fields: Record<string, string>, filename = 'notes.txt') {
  const res = await uploadFile(ctx, auth, { filename, contentType: 'text/plain', data }, fields);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ upload: { id: string; shortCode: string } }>().upload;
}

const viewsAfterFlush = async (id: string) => {
  await ctx.modules.links.service.flushViews();
  return viewsOf(ctx, id);
};

describe('S3_SERVE=presigned', () => {
  it('redirects a public link to a presigned GET with the same bytes, type and disposition', async () => {
    const data = crypto.randomBytes(300 * 1024);
    const up = await upload(data, { isPublic: 'true' });
    const res = await ctx.app.inject({ method: 'GET', url: `/${up.shortCode}` });
    expect(res.statusCode).toBe(302);
    const location = res.headers.location as string;
    expect(location.startsWith(s3.endpoint)).toBe(true);
    expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe(String(PRESIGNED_SECONDS));
    // The redirect is for this request only: never cached past the URL's life.
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toBe('');

    const direct = await fetch(location);
    expect(direct.status).toBe(200);
    expect(Buffer.from(await direct.arrayBuffer()).equals(data)).toBe(true);
    expect(direct.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(direct.headers.get('content-disposition')).toBe('inline; filename="notes.txt"');
    expect(await viewsAfterFlush(up.id)).toBe(1);
  });

  it('counts a view for a whole GET or one from byte 0, not for a later range', async () => {
    const up = await upload(crypto.randomBytes(1000), { isPublic: 'true' });
    for (const range of ['bytes=0-99', 'bytes=500-']) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/${up.shortCode}`,
        headers: { range },
      });
      expect(res.statusCode).toBe(302);
      const part = await fetch(res.headers.location as string, { headers: { range } });
      expect(part.status).toBe(206);
    }
    expect(await viewsAfterFlush(up.id)).toBe(1);
  });

  it('answers HEAD, a 304 and an unsatisfiable range itself, without a redirect', async () => {
    const up = await upload(crypto.randomBytes(1000), { isPublic: 'true' });
    const head = await ctx.app.inject({ method: 'HEAD', url: `/${up.shortCode}` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('1000');
    const etag = head.headers.etag as string;
    const again = await ctx.app.inject({
      method: 'GET',
      url: `/${up.shortCode}`,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    const past = await ctx.app.inject({
      method: 'GET',
      url: `/${up.shortCode}`,
      headers: { range: 'bytes=5000-' },
    });
    expect(past.statusCode).toBe(416);
    expect(await viewsAfterFlush(up.id)).toBe(0);
  });

  it('gives a private file a redirect only for its owner, never for anyone else', async () => {
    const up = await upload(crypto.randomBytes(1000), { isPublic: 'false' });
    const anonymous = await ctx.app.inject({ method: 'GET', url: `/${up.shortCode}` });
    expect(anonymous.statusCode).toBe(404);
    expect(anonymous.headers.location).toBeUndefined();
    const other = await signIn(ctx);
    const stranger = await ctx.app.inject({
      method: 'GET',
      url: `/${up.shortCode}`,
      headers: other.auth,
    });
    expect(stranger.statusCode).toBe(404);
    const owner = await ctx.app.inject({ method: 'GET', url: `/${up.shortCode}`, headers: auth });
    expect(owner.statusCode).toBe(302);
    expect((await fetch(owner.headers.location as string)).status).toBe(200);
  });

  it('never redirects a link with a view limit or a password: each view is spent here', async () => {
    const data = crypto.randomBytes(200 * 1024);
    const limited = await upload(data, { isPublic: 'true', maxViews: '1' });
    const first = await ctx.app.inject({ method: 'GET', url: `/${limited.shortCode}` });
    expect(first.statusCode).toBe(200);
    expect(first.rawPayload.equals(data)).toBe(true);
    expect((await ctx.app.inject({ method: 'GET', url: `/${limited.shortCode}` })).statusCode).toBe(
      410,
    );
    const locked = await upload(data, { isPublic: 'true', password: 'store-proof' });
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/${locked.shortCode}`,
      headers: { 'x-upshot-password': 'store-proof' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers.location).toBeUndefined();
  });

  it("gives an expiring link's presigned URL no more life than the link has left", async () => {
    const up = await upload(crypto.randomBytes(1000), { isPublic: 'true', expires: '2m' });
    const res = await ctx.app.inject({ method: 'GET', url: `/${up.shortCode}` });
    expect(res.statusCode).toBe(302);
    const seconds = Number(
      new URL(res.headers.location as string).searchParams.get('X-Amz-Expires'),
    );
    expect(seconds).toBeGreaterThan(100);
    expect(seconds).toBeLessThanOrEqual(120);
  });

  it('stops redirecting a deleted file at once', async () => {
    const up = await upload(crypto.randomBytes(1000), { isPublic: 'true' });
    expect((await ctx.app.inject({ method: 'GET', url: `/${up.shortCode}` })).statusCode).toBe(302);
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${up.id}`,
      headers: auth,
    });
    expect(del.statusCode).toBe(204);
    expect((await ctx.app.inject({ method: 'GET', url: `/${up.shortCode}` })).statusCode).toBe(404);
  });

  it('keeps an unsafe type a download on the store too', async () => {
    const res = await uploadFile(
      ctx,
      auth,
      { filename: 'page.html', contentType: 'text/html', data: Buffer.from('<script>1</script>') },
      { isPublic: 'true' },
    );
    const up = res.json<{ upload: { shortCode: string } }>().upload;
    const link = await ctx.app.inject({ method: 'GET', url: `/${up.shortCode}` });
    expect(link.statusCode).toBe(302);
    const direct = await fetch(link.headers.location as string);
    expect(direct.headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it("serves a PDF's framed copy itself: the store could neither sandbox it nor keep it framed here", async () => {
    const data = Buffer.from('%PDF-1.4\n%%EOF\n');
    const res = await uploadFile(
      ctx,
      auth,
      { filename: 'doc.pdf', contentType: 'application/pdf', data },
      { isPublic: 'true' },
    );
    const up = res.json<{ upload: { shortCode: string } }>().upload;
    const link = await ctx.app.inject({ method: 'GET', url: `/${up.shortCode}` });
    expect(link.statusCode).toBe(302);
    const framed = await ctx.app.inject({
      method: 'GET',
      url: `/${up.shortCode}?frame`,
      headers: { 'sec-fetch-dest': 'iframe' },
    });
    expect(framed.statusCode).toBe(200);
    expect(framed.rawPayload.equals(data)).toBe(true);
    expect(framed.headers['content-disposition']).toMatch(/^inline/);
    expect(framed.headers['content-security-policy']).toMatch(/^sandbox;.*frame-ancestors 'self'$/);
  });
});
