/**
 * View limits, counted exactly: a view is a visitor's download that holds no grant of an
 * earlier view (a GET; not a HEAD, a 304, nor a later range of a download already counted,
 * whose browser carries the grant cookie). With maxViews N, N simultaneous-or-not downloads get
 * the file and every other one a 410; the owner, admins and signed links spend none.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import {
  linkPath,
  ownersView,
  patchUpload,
  sweepDeadLinks,
  uploadWith,
  visitor,
  type Auth,
} from '../../../test/links.ts';
import { diskUsedOf } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { SMALL_BODY_BYTES } from './service.ts';
import { VIEW_GRANT_TTL_MS } from './urls.ts';

let ctx: TestContext;
let owner: Auth;
beforeAll(async () => {
  ctx = await createTestContext();
  ({ auth: owner } = await signIn(ctx));
});
afterAll(() => ctx.close());

/** Every cookie of a jar, sent wherever (as a client that ignores paths would). */
const cookieOf = (jar: Map<string, { name: string; value: string }>) =>
  [...new Set([...jar.values()].map((c) => `${c.name}=${c.value}`))].join('; ');

let ipCounter = 0;
const freshVisitor = () => visitor(ctx, `192.0.2.${++ipCounter % 250}`);

describe('views counted exactly', () => {
  it('maxViews 3: of twenty simultaneous downloads, exactly three get the file, seventeen a 410', async () => {
    const up = await uploadWith(ctx, owner, { maxViews: '3' });
    expect(up).toMatchObject({ maxViews: 3, viewsLeft: 3 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => freshVisitor().get(linkPath(up))),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 410)).toHaveLength(17);
    for (const res of answers.filter((r) => r.statusCode === 200)) {
      expect(res.body).toBe('hello, link\n');
    }
    for (const res of answers.filter((r) => r.statusCode === 410)) {
      expect(res.body).toContain('This link has been used up');
      expect(res.body).not.toContain('hello, link');
    }
    expect(await ownersView(ctx, owner, up.id)).toMatchObject({ maxViews: 3, viewsLeft: 0 });
  });

  it('maxViews 1 can be viewed exactly once', async () => {
    const up = await uploadWith(ctx, owner, { maxViews: '1' });
    const first = await freshVisitor().get(linkPath(up));
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe('hello, link\n');
    expect((await freshVisitor().get(linkPath(up))).statusCode).toBe(410);
  });

  it('a HEAD, a 304 and the owner, an admin or a signed link spend no view', async () => {
    const up = await uploadWith(ctx, owner, { maxViews: '2' });
    const v = freshVisitor();
    expect((await v.head(linkPath(up))).statusCode).toBe(200);
    expect((await v.get(linkPath(up), { 'if-none-match': `"${up.id}"` })).statusCode).toBe(304);
    expect(
      (await ctx.app.inject({ method: 'GET', url: linkPath(up), headers: owner })).statusCode,
    ).toBe(200);
    const admin = await signIn(ctx, 'admin');
    expect(
      (await ctx.app.inject({ method: 'GET', url: linkPath(up), headers: admin.auth })).statusCode,
    ).toBe(200);
    const signed = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${up.id}/access-url`,
      headers: owner,
    });
    const url = new URL(signed.json<{ url: string }>().url);
    expect((await freshVisitor().get(url.pathname + url.search)).statusCode).toBe(200);
    expect((await ownersView(ctx, owner, up.id)).viewsLeft).toBe(2);
    // Two visitors spend the two views; then the first visitor's revalidation (it holds no
    // grant) and HEAD are turned away too.
    expect((await freshVisitor().get(linkPath(up))).statusCode).toBe(200);
    expect((await freshVisitor().get(linkPath(up))).statusCode).toBe(200);
    expect((await ownersView(ctx, owner, up.id)).viewsLeft).toBe(0);
    expect((await v.get(linkPath(up), { 'if-none-match': `"${up.id}"` })).statusCode).toBe(410);
    expect((await v.head(linkPath(up))).statusCode).toBe(410);
    // Its owner still opens it until it is swept.
    expect(
      (await ctx.app.inject({ method: 'GET', url: linkPath(up), headers: owner })).statusCode,
    ).toBe(200);
  });

  it('a video under maxViews 1 is watched through once, with seeking, as a browser reads it', async () => {
    const size = SMALL_BODY_BYTES * 4; // large enough to stream from the file
    const data = crypto.randomBytes(size);
    const up = await uploadWith(
      ctx,
      owner,
      { maxViews: '1' },
      { filename: 'clip.mp4', contentType: 'video/mp4', data },
    );
    const player = freshVisitor();
    // The player's first request: the whole file, as a range from 0. That is the view.
    const start = await player.get(linkPath(up), { range: 'bytes=0-' });
    expect(start.statusCode).toBe(206);
    expect(start.rawPayload.equals(data)).toBe(true);
    expect(String(start.headers['set-cookie'])).toMatch(
      new RegExp(`^upshot_view_${up.id}=.*HttpOnly.*SameSite=Lax`, 'i'),
    );
    // Seeking: later ranges, then back to the start, and a reload of the page.
    const seek = await player.get(linkPath(up), { range: `bytes=${size / 2}-` });
    expect(seek.statusCode).toBe(206);
    expect(seek.rawPayload.equals(data.subarray(size / 2))).toBe(true);
    expect((await player.get(linkPath(up), { range: 'bytes=100-199' })).statusCode).toBe(206);
    expect((await player.get(linkPath(up), { range: 'bytes=0-' })).statusCode).toBe(206);
    expect((await player.get(linkPath(up))).statusCode).toBe(200);
    expect((await ownersView(ctx, owner, up.id)).viewsLeft).toBe(0);
    // Anyone else: used up, from any byte.
    const other = freshVisitor();
    expect((await other.get(linkPath(up), { range: 'bytes=0-' })).statusCode).toBe(410);
    expect((await other.get(linkPath(up), { range: `bytes=${size / 2}-` })).statusCode).toBe(410);
    // The grant is this upload's alone, and runs out.
    const jarCopy = cookieOf(player.jar);
    const stale = async () =>
      (
        await ctx.app.inject({
          method: 'GET',
          url: linkPath(up),
          headers: { cookie: jarCopy, range: 'bytes=10-' },
        })
      ).statusCode;
    expect(await stale()).toBe(206);
    ctx.clock.advance(VIEW_GRANT_TTL_MS + 1000);
    expect(await stale()).toBe(410);
  });

  it('a range from the middle without a grant is a download of its own: it spends a view', async () => {
    const up = await uploadWith(ctx, owner, { maxViews: '1' });
    const res = await freshVisitor().get(linkPath(up), { range: 'bytes=1-' });
    expect(res.statusCode).toBe(206);
    expect(res.body).toBe('ello, link\n');
    expect((await freshVisitor().get(linkPath(up), { range: 'bytes=0-0' })).statusCode).toBe(410);
  });

  it("shows a view-limited upload's thumbnail to its managers only", async () => {
    const png = await (
      await import('sharp')
    )
      .default({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const up = await uploadWith(
      ctx,
      owner,
      { maxViews: '1' },
      { filename: 'pic.png', contentType: 'image/png', data: png },
    );
    await ctx.background.drain();
    const listed = await ownersView(ctx, owner, up.id);
    // The owner's card gets a signed thumbnail link: it opens, and spends nothing.
    expect(listed.thumbnailUrl).toContain('signature=');
    const thumb = new URL(listed.thumbnailUrl!);
    expect((await freshVisitor().get(thumb.pathname + thumb.search)).statusCode).toBe(200);
    // A visitor gets none, before a view or after (fetching one is never a view).
    const v = freshVisitor();
    expect((await v.get(`/thumb/${up.shortCode}`)).statusCode).toBe(404);
    expect((await v.get(linkPath(up))).statusCode).toBe(200);
    expect((await v.get(`/thumb/${up.shortCode}`, { cookie: cookieOf(v.jar) })).statusCode).toBe(
      404,
    );
    expect((await freshVisitor().get(`/thumb/${up.shortCode}`)).statusCode).toBe(410);
    expect((await ownersView(ctx, owner, up.id)).viewsLeft).toBe(0);
  });
});

describe('changing a view limit, and the sweep', () => {
  it('a new limit counts from 0; a changed one keeps the views used; none forgets them', async () => {
    const up = await uploadWith(ctx, owner);
    expect(up).toMatchObject({ maxViews: null, viewsLeft: null });
    await freshVisitor().get(linkPath(up));
    let res = await patchUpload(ctx, owner, up.id, { maxViews: 3 });
    expect(res.json()).toMatchObject({ maxViews: 3, viewsLeft: 3 });
    await freshVisitor().get(linkPath(up));
    await freshVisitor().get(linkPath(up));
    res = await patchUpload(ctx, owner, up.id, { maxViews: 5 });
    expect(res.json()).toMatchObject({ maxViews: 5, viewsLeft: 3 });
    // A limit at or below the views used would use the link up (and delete it): refused.
    for (const maxViews of [1, 2]) {
      res = await patchUpload(ctx, owner, up.id, { maxViews });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        'maxViews: must be more than the 2 views already used (to stop the link, make it private)',
      );
    }
    res = await patchUpload(ctx, owner, up.id, { maxViews: 3 });
    expect(res.json()).toMatchObject({ maxViews: 3, viewsLeft: 1 });
    await freshVisitor().get(linkPath(up));
    expect((await freshVisitor().get(linkPath(up))).statusCode).toBe(410);
    // Raised once used up, before the sweep: the link works again.
    res = await patchUpload(ctx, owner, up.id, { maxViews: 4 });
    expect(res.json()).toMatchObject({ viewsLeft: 1 });
    expect((await freshVisitor().get(linkPath(up))).statusCode).toBe(200);
    res = await patchUpload(ctx, owner, up.id, { maxViews: null });
    expect(res.json()).toMatchObject({ maxViews: null, viewsLeft: null });
    expect((await freshVisitor().get(linkPath(up))).statusCode).toBe(200);
  });

  it('deletes a used-up upload once its last viewer can no longer go on, and gives its quota back', async () => {
    // A user of its own: the sweep deletes every used-up upload, other tests' too.
    const { auth, user } = await signIn(ctx);
    const up = await uploadWith(ctx, auth, { maxViews: '1' });
    const kept = await uploadWith(ctx, auth, { maxViews: '2' });
    const before = await diskUsedOf(ctx, user.id);
    expect(before).toBe(2 * 4096);
    const player = freshVisitor();
    expect((await player.get(linkPath(up))).statusCode).toBe(200);
    // While the viewer's download may go on, the sweep leaves it.
    await sweepDeadLinks(ctx);
    expect((await player.get(linkPath(up), { range: 'bytes=3-' })).statusCode).toBe(206);
    ctx.clock.advance(VIEW_GRANT_TTL_MS);
    await sweepDeadLinks(ctx);
    const gone = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${up.id}`,
      headers: auth,
    });
    expect(gone.statusCode).toBe(404);
    expect(await diskUsedOf(ctx, user.id)).toBe(before - 4096);
    // One with views left stays.
    expect((await ownersView(ctx, auth, kept.id)).viewsLeft).toBe(2);
    expect((await freshVisitor().get(linkPath(up))).statusCode).toBe(404);
  });
});
