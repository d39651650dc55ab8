/**
 * An upload's link settings through the API: privacy per upload and in batches (a private link
 * stops at once), every setting changed by PATCH and each bad value refused naming its field
 * with nothing changed, an administrator's change audited without the password, signed links of
 * any life up to 7 days, and the preferences' defaults for uploads that do not say.
 */
import type { AuditEntry } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initChunked, sessionRow } from '../../../test/chunked-uploads.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import {
  linkPath,
  ownersView,
  patchUpload,
  uploadWith,
  visitor,
  type Auth,
} from '../../../test/links.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
let owner: Auth;
beforeAll(async () => {
  ctx = await createTestContext();
  ({ auth: owner } = await signIn(ctx));
});
afterAll(() => ctx.close());

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(ctx.clock.now().getTime() + days * DAY).toISOString();
const batchPrivacy = (auth: Auth, uploadIds: string[], isPublic: boolean) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/uploads/batch/privacy',
    headers: auth,
    payload: { uploadIds, isPublic },
  });

describe('privacy', () => {
  it('is chosen per upload, changed by PATCH, and a private link stops serving at once', async () => {
    const up = await uploadWith(ctx, owner, { isPublic: 'true' });
    const v = visitor(ctx);
    expect((await v.get(linkPath(up))).statusCode).toBe(200);
    const res = await patchUpload(ctx, owner, up.id, { isPublic: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isPublic: false });
    expect((await v.get(linkPath(up))).statusCode).toBe(404);
    expect((await v.get(linkPath(up), { range: 'bytes=0-1' })).statusCode).toBe(404);
    expect((await patchUpload(ctx, owner, up.id, { isPublic: true })).json().isPublic).toBe(true);
    expect((await v.get(linkPath(up))).statusCode).toBe(200);
    // Another user may not change it (as if it did not exist).
    const other = await signIn(ctx);
    expect((await patchUpload(ctx, other.auth, up.id, { isPublic: false })).statusCode).toBe(404);
    expect((await ownersView(ctx, owner, up.id)).isPublic).toBe(true);
  });

  it("is switched in batches: only the caller's uploads, an admin's on another's audited", async () => {
    const mine = [await uploadWith(ctx, owner), await uploadWith(ctx, owner)];
    const other = await signIn(ctx);
    const theirs = await uploadWith(ctx, other.auth);
    const res = await batchPrivacy(owner, [...mine.map((u) => u.id), theirs.id], false);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ updatedCount: 2 });
    for (const u of mine) {
      expect((await ownersView(ctx, owner, u.id)).isPublic).toBe(false);
      expect((await visitor(ctx).get(linkPath(u))).statusCode).toBe(404);
    }
    expect((await ownersView(ctx, other.auth, theirs.id)).isPublic).toBe(true);

    const admin = await signIn(ctx, 'admin');
    expect((await batchPrivacy(admin.auth, [theirs.id], false)).json()).toEqual({
      updatedCount: 1,
    });
    expect((await visitor(ctx).get(linkPath(theirs))).statusCode).toBe(404);
    const log = await ctx.app.inject({
      method: 'GET',
      url: '/api/audit-log?limit=100',
      headers: admin.auth,
    });
    const entry = log
      .json<{ entries: AuditEntry[] }>()
      .entries.find((e) => e.targetId === theirs.id);
    expect(entry).toMatchObject({ action: 'upload.link_changed', details: { isPublic: false } });
    // The owners' own changes are not audited.
    const ownEntries = log
      .json<{ entries: AuditEntry[] }>()
      .entries.filter((e) => mine.some((u) => u.id === e.targetId));
    expect(ownEntries).toEqual([]);

    for (const body of [
      { uploadIds: [], isPublic: true },
      { uploadIds: [mine[0]!.id] },
      { uploadIds: [mine[0]!.id], isPublic: 'false' },
    ]) {
      const bad = await ctx.app.inject({
        method: 'POST',
        url: '/api/uploads/batch/privacy',
        headers: owner,
        payload: body,
      });
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('PATCH /api/uploads/{id}', () => {
  it('changes any of the settings at once, and the answer says what applies', async () => {
    const up = await uploadWith(ctx, owner);
    expect(up).toMatchObject({
      isPublic: true,
      expiresAt: null,
      maxViews: null,
      viewsLeft: null,
      hasPassword: false,
    });
    const expiresAt = inDays(3);
    const res = await patchUpload(ctx, owner, up.id, {
      vanityUrl: `all-${up.shortCode}`,
      isPublic: false,
      expiresAt,
      maxViews: 5,
      password: 'open sesame',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      vanityUrl: `all-${up.shortCode}`,
      isPublic: false,
      expiresAt,
      maxViews: 5,
      viewsLeft: 5,
      hasPassword: true,
    });
    expect(res.body).not.toContain('open sesame');
    expect(res.body).not.toContain('argon2');
    const cleared = await patchUpload(ctx, owner, up.id, {
      expiresAt: null,
      maxViews: null,
      password: null,
    });
    expect(cleared.json()).toMatchObject({
      expiresAt: null,
      maxViews: null,
      viewsLeft: null,
      hasPassword: false,
      isPublic: false,
    });
  });

  it('refuses each bad value with a 400 naming its field, and changes nothing', async () => {
    const up = await uploadWith(ctx, owner, { maxViews: '2' });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ expiresAt: inDays(-1) }, /^expiresAt: must be in the future$/],
      [{ expiresAt: inDays(11 * 366) }, /^expiresAt: must be at most 10 years away$/],
      [{ expiresAt: '7d' }, /^expiresAt: must be an ISO date-time$/],
      [{ expiresAt: '2026-12-01' }, /^expiresAt: /],
      [{ maxViews: 0 }, /^maxViews: must be at least 1$/],
      [{ maxViews: 1.5 }, /^maxViews: /],
      [{ maxViews: '3' }, /^maxViews: /],
      [{ password: '' }, /^password: must not be empty$/],
      [{ password: 'x'.repeat(201) }, /^password: /],
      [{ password: 'tab\there' }, /^password: must not contain control characters$/],
      [{ password: ' padded ' }, /^password: must not begin or end with a space$/],
      [{ isPublic: 'false' }, /^isPublic: /],
      [{ views: 100 }, /views/],
      // A good change beside a bad one: neither is made, whichever is checked where.
      [{ vanityUrl: `kept-${up.shortCode}`, maxViews: 0 }, /^maxViews: /],
      [{ isPublic: false, expiresAt: inDays(-1) }, /^expiresAt: /],
      [{ vanityUrl: `kept-${up.shortCode}`, expiresAt: inDays(-1) }, /^expiresAt: /],
      [{ vanityUrl: 'abc234', isPublic: false }, /short code/],
      [{ vanityUrl: 'upload', password: 'new one' }, /reserved/],
    ];
    for (const [body, message] of cases) {
      const res = await patchUpload(ctx, owner, up.id, body);
      expect([400, 409], JSON.stringify(body)).toContain(res.statusCode);
      expect(res.json().message, JSON.stringify(body)).toMatch(message);
    }
    // A taken custom URL beside a link change: nothing changes either.
    const other = await uploadWith(ctx, owner);
    await patchUpload(ctx, owner, other.id, { vanityUrl: `taken-${up.shortCode}` });
    const taken = await patchUpload(ctx, owner, up.id, {
      vanityUrl: `taken-${up.shortCode}`,
      isPublic: false,
    });
    expect(taken.statusCode).toBe(409);
    expect(await ownersView(ctx, owner, up.id)).toMatchObject({
      vanityUrl: null,
      isPublic: true,
      expiresAt: null,
      maxViews: 2,
      hasPassword: false,
    });
  });

  it("audits an administrator's change to another's link, never its password", async () => {
    const up = await uploadWith(ctx, owner);
    const admin = await signIn(ctx, 'admin');
    const res = await patchUpload(ctx, admin.auth, up.id, { maxViews: 3, password: 'hunter22' });
    expect(res.statusCode).toBe(200);
    const log = await ctx.app.inject({
      method: 'GET',
      url: '/api/audit-log?limit=100',
      headers: admin.auth,
    });
    expect(log.body).not.toContain('hunter22');
    const entry = log.json<{ entries: AuditEntry[] }>().entries.find((e) => e.targetId === up.id);
    expect(entry).toMatchObject({
      action: 'upload.link_changed',
      details: { maxViews: 3, password: 'set' },
    });
  });
});

describe('signed links of a chosen life', () => {
  it('last ttl seconds, up to 7 days; a longer or odd one is a 400 naming ttl', async () => {
    const up = await uploadWith(ctx, owner, { isPublic: 'false' });
    const week = 7 * DAY;
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${up.id}/access-url?ttl=${week / 1000}`,
      headers: owner,
    });
    expect(res.statusCode).toBe(200);
    const { url, expiresAt } = res.json<{ url: string; expiresAt: string }>();
    expect(Date.parse(expiresAt) - ctx.clock.now().getTime()).toBeGreaterThan(week - 2000);
    expect(Date.parse(expiresAt) - ctx.clock.now().getTime()).toBeLessThanOrEqual(week);
    const path = new URL(url).pathname + new URL(url).search;
    const v = visitor(ctx);
    ctx.clock.advance(week - 1000);
    expect((await v.get(path)).statusCode).toBe(200);
    ctx.clock.advance(2000);
    expect((await v.get(path)).statusCode).toBe(404);

    for (const ttl of ['604801', '0', '-5', '1.5', 'week', '']) {
      const bad = await ctx.app.inject({
        method: 'GET',
        url: `/api/uploads/${up.id}/access-url?ttl=${ttl}`,
        headers: owner,
      });
      expect(bad.statusCode, ttl).toBe(400);
      expect(bad.json().message, ttl).toMatch(/^ttl: /);
    }
  });

  it("end no later than the link's own expiry", async () => {
    const expiresAt = inDays(2);
    const up = await uploadWith(ctx, owner, { isPublic: 'false', expires: expiresAt });
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${up.id}/access-url?ttl=${(7 * DAY) / 1000}`,
      headers: owner,
    });
    expect(res.statusCode).toBe(200);
    const signed = res.json<{ url: string; expiresAt: string }>();
    expect(signed.expiresAt).toBe(expiresAt);
    expect(new URL(signed.url).searchParams.get('expires')).toBe(String(Date.parse(expiresAt)));
    // A shorter life than the link's is kept as asked.
    const short = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${up.id}/access-url?ttl=60`,
      headers: owner,
    });
    const left =
      Date.parse(short.json<{ expiresAt: string }>().expiresAt) - ctx.clock.now().getTime();
    expect(left).toBeGreaterThan(58_000);
    expect(left).toBeLessThanOrEqual(60_000);
  });
});

describe("the preferences' defaults", () => {
  it('apply to uploads that do not say, simple, by headers and chunked; said ones win', async () => {
    const { auth } = await signIn(ctx);
    const prefs = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/preferences',
      headers: auth,
      payload: { defaultExpiry: '7d', defaultMaxViews: 5, defaultUploadPrivacy: false },
    });
    expect(prefs.statusCode, prefs.body).toBe(200);
    const week = 7 * DAY;
    const plain = await uploadWith(ctx, auth);
    expect(plain).toMatchObject({ isPublic: false, maxViews: 5 });
    const left = Date.parse(plain.expiresAt!) - ctx.clock.now().getTime();
    expect(left).toBeGreaterThan(week - 2000);
    expect(left).toBeLessThanOrEqual(week);
    // As ShareX sends it: the file alone, with what the user put in the headers.
    const sharex = await uploadWith(ctx, { ...auth, 'x-upshot-max-views': '2' });
    expect(sharex).toMatchObject({ isPublic: false, maxViews: 2 });
    expect(sharex.expiresAt).not.toBeNull();
    const said = await uploadWith(ctx, auth, {
      expires: 'never',
      maxViews: 'none',
      isPublic: 'true',
    });
    expect(said).toMatchObject({ isPublic: true, expiresAt: null, maxViews: null });

    const init = await initChunked(ctx, auth, { filename: 'b.bin', totalSize: 5, totalChunks: 1 });
    expect(init.statusCode).toBe(201);
    const session = await sessionRow(ctx, init.json<{ uploadId: string }>().uploadId);
    expect(session).toMatchObject({ link_expires: '7d', max_views: 5, is_public: 0 });
    const none = await initChunked(ctx, auth, {
      filename: 'b.bin',
      totalSize: 5,
      totalChunks: 1,
      maxViews: null,
      expires: 'never',
    });
    const noneRow = await sessionRow(ctx, none.json<{ uploadId: string }>().uploadId);
    expect(noneRow).toMatchObject({ link_expires: 'never', max_views: null });
  });

  it('are refused out of range, naming the field', async () => {
    const { auth } = await signIn(ctx);
    for (const [body, field] of [
      [{ defaultExpiry: 'soon' }, 'defaultExpiry'],
      [{ defaultExpiry: '11y' }, 'defaultExpiry'],
      [{ defaultExpiry: '2026-12-01T00:00:00Z' }, 'defaultExpiry'],
      [{ defaultMaxViews: 0 }, 'defaultMaxViews'],
      [{ defaultMaxViews: '3' }, 'defaultMaxViews'],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'PATCH',
        url: '/api/preferences',
        headers: auth,
        payload: body,
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toContain(field);
    }
    const cleared = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/preferences',
      headers: auth,
      payload: { defaultExpiry: 'never', defaultMaxViews: null },
    });
    expect(cleared.json().preferences).toMatchObject({
      defaultExpiry: 'never',
      defaultMaxViews: null,
    });
  });
});
