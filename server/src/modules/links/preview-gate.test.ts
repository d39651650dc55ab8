/**
 * The preview page behind the raw link's gate (gate.test.ts also asks it for each refusal):
 * private, expired and used-up links, a password whose form on the page unlocks the page and
 * the raw link alike, a signed link's viewer, and views: opening the page spends none, the
 * text of a view-limited upload is never in the page, and the raw link's fetch spends one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import {
  ownersView,
  uploadWith,
  visitor,
  withForgedSignature,
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

const SECRET = 'the secret text of the file';
const text = (fields: Record<string, string> = {}) =>
  uploadWith(ctx, owner, fields, {
    filename: 'secret.txt',
    contentType: 'text/plain',
    data: Buffer.from(SECRET),
  });
let ip = 0;
const fresh = () => visitor(ctx, `192.0.2.${++ip}`);

describe('the preview page behind the gate', () => {
  it('is not found for a private upload but by its owner, and gone once expired or used up', async () => {
    const hidden = await text({ isPublic: 'false' });
    const res = await fresh().get(`/v/${hidden.shortCode}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('secret');
    const mine = await ctx.app.inject({
      method: 'GET',
      url: `/v/${hidden.shortCode}`,
      headers: owner,
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.body).toContain(SECRET);
    expect(mine.headers['cache-control']).toBe('private, no-store');

    const expiring = await text({ expires: '1h' });
    const used = await text({ maxViews: '1' });
    expect((await fresh().get(`/${used.shortCode}`)).statusCode).toBe(200);
    ctx.clock.advance(60 * 60 * 1000 + 1);
    for (const up of [expiring, used]) {
      const gone = await fresh().get(`/v/${up.shortCode}`);
      expect(gone.statusCode).toBe(410);
      expect(gone.body).not.toContain('secret');
    }
  });

  it('asks for a password with a form posted to the page, which then opens the page and the raw link', async () => {
    const up = await text({ password: 'open sesame' });
    const v = fresh();
    const locked = await v.get(`/v/${up.shortCode}`);
    expect(locked.statusCode).toBe(401);
    expect(locked.body).toContain('<form method="post">');
    expect(locked.body).not.toContain('secret');

    const wrong = await v.unlock(`/v/${up.shortCode}`, 'not it');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('Wrong password');

    const right = await v.unlock(`/v/${up.shortCode}`, 'open sesame');
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe(up.shortCode);
    const paths = (right.cookies as { path: string }[]).map((c) => c.path).sort();
    expect(paths).toEqual([`/${up.shortCode}`, `/v/${up.shortCode}`].sort());
    const opened = await v.get(`/v/${up.shortCode}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain(SECRET);
    expect((await v.get(`/${up.shortCode}`)).body).toBe(SECRET);
    // The raw link's own form unlocks the page too.
    const other = fresh();
    expect((await other.unlock(`/${up.shortCode}`, 'open sesame')).statusCode).toBe(303);
    expect((await other.get(`/v/${up.shortCode}`)).statusCode).toBe(200);
  });

  it("opens a private page by a signed link, whose query the page's raw links carry", async () => {
    const up = await text({ isPublic: 'false' });
    const access = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${up.id}/access-url`,
      headers: owner,
    });
    const signed = new URL(access.json<{ url: string }>().url);
    const res = await fresh().get(`/v/${up.shortCode}${signed.search}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(SECRET);
    expect(res.body).toContain(
      `href="${ctx.config.publicUrl}/${up.shortCode}${signed.search.replace(/&/g, '&amp;')}&amp;download"`,
    );
    const raw = /data-raw="([^"]+)"/.exec(res.body)![1]!.replace(/&amp;/g, '&');
    expect((await fresh().get(raw.replace(ctx.config.publicUrl, ''))).body).toBe(SECRET);
    // A forged signature opens nothing.
    const forged = withForgedSignature(`/v/${up.shortCode}${signed.search}`);
    expect((await fresh().get(forged)).statusCode).toBe(404);
  });

  it('spends no view when opened; a view-limited text is fetched from the raw link, which spends one', async () => {
    const up = await text({ maxViews: '2' });
    const v = fresh();
    for (let i = 0; i < 3; i++) {
      const res = await v.get(`/v/${up.shortCode}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(SECRET);
      expect(res.body).toContain('data-fetch="true"');
    }
    expect((await ownersView(ctx, owner, up.id)).viewsLeft).toBe(2);
    // What the page's script does: a range of the raw link, a view, and its grant.
    const fetched = await v.get(`/${up.shortCode}`, { range: 'bytes=0-524287' });
    expect(fetched.statusCode).toBe(206);
    expect(fetched.body).toBe(SECRET);
    expect((await ownersView(ctx, owner, up.id)).viewsLeft).toBe(1);
    // The grant is the page's too: once the last view is spent, this browser keeps both.
    const last = fresh();
    expect((await last.get(`/${up.shortCode}`)).statusCode).toBe(200);
    expect((await last.get(`/v/${up.shortCode}`)).statusCode).toBe(200);
    expect((await fresh().get(`/v/${up.shortCode}`)).statusCode).toBe(410);
  });
});
