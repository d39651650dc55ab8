/**
 * Links that expire: asked at upload (a duration or a date-time, as a field, a header or in a
 * chunked init), answered 410 by every route that serves the upload's bytes once the time has
 * come (a fake clock moves it), and deleted by the sweep: bytes gone, quota given back, the link
 * never issued again.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeChunked, initChunked, sendChunk } from '../../../test/chunked-uploads.ts';
import { createTestContext, filesUnder, type TestContext } from '../../../test/context.ts';
import {
  linkPath,
  ownersView,
  patchUpload,
  sweepDeadLinks,
  uploadWith,
  visitor,
  type Auth,
} from '../../../test/links.ts';
import { diskUsedOf, uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { uploadSearch } from '../../db/search.ts';
import { createUploadsRepository } from '../uploads/repository.ts';
import { VIEW_GRANT_TTL_MS } from './urls.ts';

let ctx: TestContext;
let owner: Auth;
beforeAll(async () => {
  ctx = await createTestContext({}, {}, { chunkSize: 1024 });
  ({ auth: owner } = await signIn(ctx));
});
afterAll(() => ctx.close());

const HOUR = 60 * 60 * 1000;
const now = () => ctx.clock.now().getTime();
const expiresIn = (upload: { expiresAt: string | null }) => Date.parse(upload.expiresAt!) - now();

describe('asking for an expiry', () => {
  it('takes a duration or a date-time, as a field or a header; a field wins over its header', async () => {
    const byField = await uploadWith(ctx, owner, { expires: '30m' });
    expect(expiresIn(byField)).toBeGreaterThan(29 * 60 * 1000);
    expect(expiresIn(byField)).toBeLessThanOrEqual(30 * 60 * 1000);
    const at = new Date(now() + 3 * 24 * HOUR);
    at.setUTCMilliseconds(0);
    const byDate = await uploadWith(ctx, owner, {
      expires: at.toISOString().replace('.000Z', 'Z'),
    });
    expect(byDate.expiresAt).toBe(at.toISOString());
    // With an offset: stored as the same moment, in UTC.
    const offset = new Date(at.getTime() + HOUR).toISOString().replace('.000Z', '+01:00');
    expect((await uploadWith(ctx, owner, { expires: offset })).expiresAt).toBe(at.toISOString());

    const withHeaders = await uploadWith(ctx, { ...owner, 'x-upshot-expires': '12h' });
    expect(Math.round(expiresIn(withHeaders) / HOUR)).toBe(12);
    const both = await uploadWith(ctx, { ...owner, 'x-upshot-expires': '12h' }, { expires: '1y' });
    expect(Math.round(expiresIn(both) / (24 * HOUR))).toBe(365);
    expect((await uploadWith(ctx, owner, { expires: 'never' })).expiresAt).toBeNull();
    expect((await uploadWith(ctx, owner)).expiresAt).toBeNull();
  });

  it('refuses anything else with a 400 naming the field, and stores nothing', async () => {
    const { auth, user } = await signIn(ctx);
    const file = { filename: 'a.txt', contentType: 'text/plain', data: Buffer.from('a') };
    const storedFiles = () => filesUnder(path.join(ctx.dataDir, 'files'));
    const filesBefore = storedFiles();
    const past = new Date(now() - 60_000).toISOString();
    const cases: [Record<string, string>, Record<string, string>, RegExp][] = [
      [{ expires: 'tomorrow' }, {}, /^expires: must be "never", a duration/],
      [{ expires: '7 d' }, {}, /^expires: /],
      [{ expires: '0d' }, {}, /^expires: /],
      [{ expires: '30s' }, {}, /^expires: /],
      [{ expires: '2026-13-01T00:00:00Z' }, {}, /^expires: /],
      [{ expires: '2026-12-01' }, {}, /^expires: /],
      [{ expires: past }, {}, /^expires: must be in the future$/],
      [{ expires: '11y' }, {}, /^expires: must be at most 10 years away$/],
      [{ maxViews: '0' }, {}, /^maxViews: must be at least 1$/],
      [{ maxViews: '-1' }, {}, /^maxViews: /],
      [{ maxViews: '2.5' }, {}, /^maxViews: /],
      [{ maxViews: 'many' }, {}, /^maxViews: /],
      [{ password: '' }, {}, /^password: must not be empty$/],
      [{ isPublic: 'maybe' }, {}, /^isPublic: /],
      [{}, { 'x-upshot-expires': 'soon' }, /^x-upshot-expires: /],
      [{}, { 'x-upshot-expires': past }, /^expires: must be in the future$/],
      [{}, { 'x-upshot-max-views': '0' }, /^x-upshot-max-views: must be at least 1$/],
      [{}, { 'x-upshot-public': 'yes' }, /^x-upshot-public: /],
    ];
    for (const [fields, headers, message] of cases) {
      const res = await uploadFile(ctx, { ...auth, ...headers }, file, fields);
      const label = JSON.stringify({ fields, headers });
      expect(res.statusCode, label).toBe(400);
      expect(res.json().message, label).toMatch(message);
    }
    expect(await diskUsedOf(ctx, user.id)).toBe(0);
    expect(storedFiles()).toEqual(filesBefore);
  });

  it('takes the same four in a chunked init; a duration counts from completion', async () => {
    const init = await initChunked(ctx, owner, {
      filename: 'big.bin',
      totalSize: 10,
      totalChunks: 1,
      isPublic: true,
      expires: '1d',
      maxViews: 4,
      password: 'chunky',
    });
    expect(init.statusCode, init.body).toBe(201);
    const { uploadId } = init.json<{ uploadId: string }>();
    expect((await sendChunk(ctx, owner, uploadId, 0, Buffer.from('0123456789'))).statusCode).toBe(
      204,
    );
    ctx.clock.advance(6 * HOUR);
    const done = await completeChunked(ctx, owner, uploadId);
    expect(done.statusCode, done.body).toBe(201);
    const upload = done.json<{ upload: { expiresAt: string } }>().upload;
    expect(upload).toMatchObject({ maxViews: 4, viewsLeft: 4, hasPassword: true, isPublic: true });
    expect(Math.round(expiresIn(upload) / HOUR)).toBe(24);

    for (const [body, message] of [
      [{ expires: 'later' }, /^expires: /],
      [{ expires: new Date(now() - 1000).toISOString() }, /^expires: must be in the future$/],
      [{ maxViews: 0 }, /^maxViews: must be at least 1$/],
      [{ maxViews: '3' }, /^maxViews: /],
      [{ password: '' }, /^password: must not be empty$/],
    ] as const) {
      const res = await initChunked(ctx, owner, {
        filename: 'big.bin',
        totalSize: 10,
        totalChunks: 1,
        ...body,
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
  });

  it('ends a chunked session whose asked expiry passed before it was complete', async () => {
    const { auth, user } = await signIn(ctx);
    const at = new Date(now() + HOUR).toISOString();
    const init = await initChunked(ctx, auth, {
      filename: 'late.bin',
      totalSize: 10,
      totalChunks: 1,
      expires: at,
    });
    expect(init.statusCode, init.body).toBe(201);
    const { uploadId } = init.json<{ uploadId: string }>();
    expect((await sendChunk(ctx, auth, uploadId, 0, Buffer.from('0123456789'))).statusCode).toBe(
      204,
    );
    ctx.clock.advance(2 * HOUR);
    const done = await completeChunked(ctx, auth, uploadId);
    expect(done.statusCode).toBe(400);
    expect(done.json().message).toMatch(/^expires: the link's expiry .* passed before/);
    // Nothing was made, nothing is held of the quota.
    expect((await completeChunked(ctx, auth, uploadId)).statusCode).toBe(404);
    expect(await diskUsedOf(ctx, user.id)).toBe(0);
    const reserved = await ctx.handle.db
      .selectFrom('users')
      .select('disk_reserved')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(reserved.disk_reserved)).toBe(0);
  });
});

describe('an expired link', () => {
  it('answers 410 on the file, its ranges, HEAD and thumbnail, to everyone, its owner too', async () => {
    const png = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#aa3300' },
    })
      .png()
      .toBuffer();
    const up = await uploadWith(
      ctx,
      owner,
      { expires: '1h' },
      { filename: 'pic.png', contentType: 'image/png', data: png },
    );
    await ctx.background.drain();
    const v = visitor(ctx);
    expect((await v.get(linkPath(up))).statusCode).toBe(200);
    expect((await v.get(`/thumb/${up.shortCode}`)).statusCode).toBe(200);
    // An expiring link is kept by no shared cache.
    expect((await v.get(linkPath(up))).headers['cache-control']).toBe('private, no-cache');

    ctx.clock.advance(HOUR);
    const requests = [
      v.get(linkPath(up)),
      v.get(linkPath(up), { range: 'bytes=5-' }),
      v.head(linkPath(up)),
      v.get(`/thumb/${up.shortCode}`),
      ctx.app.inject({ method: 'GET', url: linkPath(up), headers: owner }),
    ];
    for (const res of await Promise.all(requests)) {
      expect(res.statusCode).toBe(410);
    }
    const page = await v.get(linkPath(up));
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('This link has expired');
    expect(page.body).not.toContain('pic.png');
  });

  it('is swept within minutes: bytes removed, quota given back, the link never issued again', async () => {
    const { auth, user } = await signIn(ctx);
    const up = await uploadWith(ctx, auth, { expires: '30m' });
    const stays = await uploadWith(ctx, auth, { expires: '2h' });
    const key = (
      await ctx.handle.db
        .selectFrom('uploads')
        .select('storage_key')
        .where('id', '=', up.id)
        .executeTakeFirstOrThrow()
    ).storage_key;
    const stored = filesUnder(ctx.dataDir).find((f) => f.endsWith(key.split('/').pop()!));
    expect(stored && fs.existsSync(stored)).toBe(true);
    expect(await diskUsedOf(ctx, user.id)).toBe(2 * 4096);

    await sweepDeadLinks(ctx);
    expect((await ownersView(ctx, auth, up.id)).id).toBe(up.id);
    ctx.clock.advance(30 * 60 * 1000);
    expect(await sweepDeadLinks(ctx)).toBeGreaterThanOrEqual(1);
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/uploads/${up.id}`, headers: auth }))
        .statusCode,
    ).toBe(404);
    expect(fs.existsSync(stored!)).toBe(false);
    expect(await diskUsedOf(ctx, user.id)).toBe(4096);
    expect((await ownersView(ctx, auth, stays.id)).expiresAt).not.toBeNull();
    // Its short code stays retired: no new upload gets it, and it answers as no link.
    const slug = await ctx.handle.db
      .selectFrom('slugs')
      .selectAll()
      .where('slug', '=', up.shortCode)
      .executeTakeFirstOrThrow();
    expect(slug.upload_id).toBeNull();
    expect((await visitor(ctx).get(linkPath(up))).statusCode).toBe(404);
  });

  it('is left by a sweep that found it dead, when given a new life before the delete', async () => {
    const up = await uploadWith(ctx, owner, { expires: '1h' });
    const limited = await uploadWith(ctx, owner, { maxViews: '1' });
    await visitor(ctx).get(linkPath(limited));
    ctx.clock.advance(HOUR + VIEW_GRANT_TTL_MS);
    // The sweep's own two steps, with the owner's changes between them.
    const repository = createUploadsRepository(ctx.handle.db, uploadSearch(ctx.handle.dialect));
    const times = {
      now: ctx.clock.now().toISOString(),
      lastViewBefore: new Date(now() - VIEW_GRANT_TTL_MS).toISOString(),
    };
    const found = await repository.deadLinkIds(times);
    expect(found).toEqual(expect.arrayContaining([up.id, limited.id]));
    expect((await patchUpload(ctx, owner, up.id, { expiresAt: null })).statusCode).toBe(200);
    expect((await patchUpload(ctx, owner, limited.id, { maxViews: 5 })).statusCode).toBe(200);
    const deleted = await repository.deleteMany([up.id, limited.id], null, times.now, times);
    expect(deleted).toEqual([]);
    expect((await ownersView(ctx, owner, up.id)).expiresAt).toBeNull();
    expect((await ownersView(ctx, owner, limited.id)).viewsLeft).toBe(4);
  });

  it('is given back its life by a new expiry before the sweep, or none', async () => {
    const up = await uploadWith(ctx, owner, { expires: '1h' });
    ctx.clock.advance(HOUR);
    expect((await visitor(ctx).get(linkPath(up))).statusCode).toBe(410);
    const later = new Date(now() + 24 * HOUR).toISOString();
    const res = await patchUpload(ctx, owner, up.id, { expiresAt: later });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().expiresAt).toBe(later);
    expect((await visitor(ctx).get(linkPath(up))).statusCode).toBe(200);
    expect((await patchUpload(ctx, owner, up.id, { expiresAt: null })).json().expiresAt).toBeNull();
    ctx.clock.advance(1000 * 24 * HOUR);
    expect((await visitor(ctx).get(linkPath(up))).statusCode).toBe(200);
  });
});
