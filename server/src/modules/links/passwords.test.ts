/**
 * Password-protected links: a visitor without the unlock gets a 401 form; the form's POST with
 * the right password sets an HttpOnly, SameSite=Lax cookie for that one upload and its password
 * as it is, then sends them back (303); a script sends X-Upshot-Password instead. A changed or
 * removed password, or a deleted upload, leaves every earlier cookie opening nothing; wrong
 * passwords are limited per address and per link; a private or missing link says nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { linkPath, patchUpload, uploadWith, visitor, type Auth } from '../../../test/links.ts';
import { signIn } from '../../../test/users.ts';
import { LINK_PASSWORD_LIMITS } from './gate.ts';

let ctx: TestContext;
let owner: Auth;
const lines: string[] = [];
beforeAll(async () => {
  const logStream = new (await import('node:stream')).Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  ctx = await createTestContext({ LOG_LEVEL: 'info' }, {}, { logStream });
  ({ auth: owner } = await signIn(ctx));
});
afterAll(() => ctx.close());

const PASSWORD = 'plum-tree 🌳 ünïcode';
let ipCounter = 0;
/** A visitor from an address no other test used (the limits count per address). */
const freshVisitor = () => visitor(ctx, `198.51.100.${++ipCounter}`);

describe('a password-protected link', () => {
  it('answers 401 with a form that posts to the link itself, naming nothing of the file', async () => {
    const up = await uploadWith(
      ctx,
      owner,
      { password: PASSWORD },
      { filename: 'secret-plan.txt' },
    );
    expect(up.hasPassword).toBe(true);
    expect(JSON.stringify(up)).not.toContain(PASSWORD);
    const v = freshVisitor();
    const res = await v.get(linkPath(up));
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<form method="post">');
    expect(res.body).toContain('type="password"');
    expect(res.body).not.toContain('secret-plan');
    expect(res.body).not.toContain('hello, link');
    // Its page may post its form back to this origin only, and run no script.
    expect(res.headers['content-security-policy']).toContain("form-action 'self'");
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    // HEAD: the same status, no body.
    const head = await v.head(linkPath(up));
    expect(head.statusCode).toBe(401);
    expect(head.body).toBe('');
  });

  it('is unlocked by the form: a cookie for that upload, HttpOnly and SameSite=Lax, then 303 back', async () => {
    const up = await uploadWith(ctx, owner, { password: PASSWORD });
    const other = await uploadWith(ctx, owner, { password: PASSWORD });
    const v = freshVisitor();
    const unlocked = await v.unlock(linkPath(up), PASSWORD);
    expect(unlocked.statusCode).toBe(303);
    expect(unlocked.headers.location).toBe(up.shortCode);
    const setCookie = String(unlocked.headers['set-cookie']);
    expect(setCookie).toContain(`upshot_unlock_${up.id}=`);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Max-Age=86400/);
    // Sent back to this link's path only: the app's pages and other links never carry it.
    expect(setCookie).toContain(`Path=/${up.shortCode};`);
    // The password is in no URL and no log line.
    expect(unlocked.headers.location).not.toContain('plum');

    const file = await v.get(linkPath(up));
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('hello, link\n');
    // Ranges and HEAD with it too.
    expect((await v.get(linkPath(up), { range: 'bytes=0-4' })).statusCode).toBe(206);
    expect((await v.head(linkPath(up))).statusCode).toBe(200);
    // That cookie opens this upload only, even with the same password elsewhere.
    expect((await v.get(linkPath(other))).statusCode).toBe(401);
    // The upload's other address is another path: a browser unlocks it apart.
    expect(
      (await patchUpload(ctx, owner, up.id, { vanityUrl: `pw-${up.shortCode}` })).statusCode,
    ).toBe(200);
    expect((await v.get(`/pw-${up.shortCode}`)).statusCode).toBe(401);
    expect((await v.unlock(`/pw-${up.shortCode}`, PASSWORD)).headers.location).toBe(
      `pw-${up.shortCode}`,
    );
    expect((await v.get(`/pw-${up.shortCode}`)).statusCode).toBe(200);
    // A cookie whose signature is not ours opens nothing.
    const forged = await ctx.app.inject({
      method: 'GET',
      url: linkPath(up),
      headers: { cookie: `upshot_unlock_${up.id}=9999999999999.${'0'.repeat(32)}` },
    });
    expect(forged.statusCode).toBe(401);
  });

  it("refuses the form posted from another site's page, counting nothing", async () => {
    const up = await uploadWith(ctx, owner, { password: PASSWORD });
    const post = (site: string, password: string) =>
      ctx.app.inject({
        method: 'POST',
        url: linkPath(up),
        remoteAddress: '198.51.100.250',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'sec-fetch-site': site,
        },
        payload: new URLSearchParams({ password }).toString(),
      });
    for (let i = 0; i < LINK_PASSWORD_LIMITS.address.max + 5; i++) {
      const res = await post('cross-site', `wrong ${i}`);
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('Open the link itself');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // Nothing was counted against the address: its own page's form goes through.
    expect((await post('same-origin', PASSWORD)).statusCode).toBe(303);
  });

  it('answers a wrong password with the form again, saying so, and sets nothing', async () => {
    const up = await uploadWith(ctx, owner, { password: PASSWORD });
    const v = freshVisitor();
    const wrong = await v.unlock(linkPath(up), 'plum-tree');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('Wrong password');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect((await v.get(linkPath(up))).statusCode).toBe(401);
  });

  it('takes the password in X-Upshot-Password on a GET (a script), UTF-8 as sent', async () => {
    const up = await uploadWith(ctx, owner, { password: PASSWORD });
    const v = freshVisitor();
    // curl sends header bytes as they are: UTF-8, which Node reads as Latin-1.
    const latin1 = Buffer.from(PASSWORD, 'utf8').toString('latin1');
    const res = await v.get(linkPath(up), { 'x-upshot-password': latin1 });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('hello, link\n');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await v.get(linkPath(up), { 'x-upshot-password': 'nope' })).statusCode).toBe(401);
    // The thumbnail route takes it too (a text file has none: 404 once through the gate).
    expect((await v.get(`/thumb/${up.shortCode}`)).statusCode).toBe(401);
    expect(
      (await v.get(`/thumb/${up.shortCode}`, { 'x-upshot-password': latin1 })).statusCode,
    ).toBe(404);
  });

  it('a changed password, a removed one, or a deleted upload: no earlier cookie opens anything', async () => {
    const up = await uploadWith(ctx, owner, { password: PASSWORD });
    const v = freshVisitor();
    expect((await v.unlock(linkPath(up), PASSWORD)).statusCode).toBe(303);
    const before = new Map(v.jar);
    expect((await v.get(linkPath(up))).statusCode).toBe(200);

    // Changed, even to the same words: the old cookie is worthless.
    expect((await patchUpload(ctx, owner, up.id, { password: PASSWORD })).statusCode).toBe(200);
    expect((await v.get(linkPath(up))).statusCode).toBe(401);
    expect((await v.unlock(linkPath(up), PASSWORD)).statusCode).toBe(303);
    expect((await v.get(linkPath(up))).statusCode).toBe(200);

    // Removed: the link is open to all; set again, no cookie from before opens it.
    const removed = await patchUpload(ctx, owner, up.id, { password: null });
    expect(removed.json().hasPassword).toBe(false);
    expect((await freshVisitor().get(linkPath(up))).statusCode).toBe(200);
    expect((await patchUpload(ctx, owner, up.id, { password: PASSWORD })).statusCode).toBe(200);
    expect((await v.get(linkPath(up))).statusCode).toBe(401);
    const replay = [...new Set([...before.values()].map((c) => `${c.name}=${c.value}`))].join('; ');
    const old = await ctx.app.inject({
      method: 'GET',
      url: linkPath(up),
      headers: { cookie: replay },
    });
    expect(old.statusCode).toBe(401);

    // Deleted: the cookie that opened it opens nothing (its link answers as one never made).
    expect((await v.unlock(linkPath(up), PASSWORD)).statusCode).toBe(303);
    expect((await v.get(linkPath(up))).statusCode).toBe(200);
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${up.id}`,
      headers: owner,
    });
    expect(del.statusCode).toBe(204);
    expect((await v.get(linkPath(up))).statusCode).toBe(404);
    expect((await v.unlock(linkPath(up), PASSWORD)).statusCode).toBe(404);
  });

  it('is opened by its owner, an admin and a signed link without the password', async () => {
    const up = await uploadWith(ctx, owner, { password: PASSWORD });
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
    const v = freshVisitor();
    expect((await v.get(url.pathname + url.search)).statusCode).toBe(200);
    // Another signed-in user is a visitor.
    const other = await signIn(ctx);
    expect(
      (await ctx.app.inject({ method: 'GET', url: linkPath(up), headers: other.auth })).statusCode,
    ).toBe(401);
  });

  it('stores an argon2id hash, never the password, and no log line carries it', async () => {
    const up = await uploadWith(ctx, owner, { password: PASSWORD });
    const row = await ctx.handle.db
      .selectFrom('uploads')
      .select('password_hash')
      .where('id', '=', up.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    await freshVisitor().unlock(linkPath(up), PASSWORD);
    await freshVisitor().get(linkPath(up), { 'x-upshot-password': 'wrong-one-logged?' });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('')).not.toContain('plum-tree');
    expect(lines.join('')).not.toContain('wrong-one-logged');
  });
});

describe('what a wrong password reveals, and how many may be tried', () => {
  it('a private link, or one that does not exist, answers 404 whatever the password', async () => {
    const priv = await uploadWith(ctx, owner, { isPublic: 'false', password: PASSWORD });
    const v = freshVisitor();
    // Each answer is the one a link that was never made gives, by method.
    const missingPost = await v.unlock('/nosuchlink', PASSWORD);
    const missingGet = await v.get('/nosuchlink');
    const answers = [
      [await v.unlock(linkPath(priv), PASSWORD), missingPost],
      [await v.unlock(linkPath(priv), 'wrong'), missingPost],
      [await v.get(linkPath(priv), { 'x-upshot-password': PASSWORD }), missingGet],
      [await v.get('/nosuchlink', { 'x-upshot-password': PASSWORD }), missingGet],
    ] as const;
    for (const [res, missing] of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(missing.body);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('limits wrong passwords from one address (429 page with Retry-After); a right one is not counted', async () => {
    const up = await uploadWith(ctx, owner, { password: PASSWORD });
    const v = freshVisitor();
    // Right passwords by header, as a script sends them again and again: never limited.
    for (let i = 0; i < LINK_PASSWORD_LIMITS.address.max + 2; i++) {
      expect((await v.get(linkPath(up), { 'x-upshot-password': PASSWORD })).statusCode).toBe(200);
    }
    for (let i = 0; i < LINK_PASSWORD_LIMITS.address.max; i++) {
      expect((await v.unlock(linkPath(up), `wrong ${i}`)).statusCode).toBe(401);
    }
    const limited = await v.unlock(linkPath(up), PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain('Too many wrong passwords');
    expect(limited.headers['set-cookie']).toBeUndefined();
    // The header path is held too, on any link, from that address.
    const another = await uploadWith(ctx, owner, { password: PASSWORD });
    expect((await v.get(linkPath(another), { 'x-upshot-password': PASSWORD })).statusCode).toBe(
      429,
    );
    // Another address is not; the window passing lets this one try again.
    expect((await freshVisitor().unlock(linkPath(up), PASSWORD)).statusCode).toBe(303);
    ctx.clock.advance(LINK_PASSWORD_LIMITS.address.windowMs);
    expect((await v.unlock(linkPath(up), PASSWORD)).statusCode).toBe(303);
  });

  it('holds the limit against wrong passwords sent all at once', async () => {
    const up = await uploadWith(ctx, owner, { password: PASSWORD });
    const v = freshVisitor();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => v.unlock(linkPath(up), `wrong ${i}`)),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LINK_PASSWORD_LIMITS.address.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - LINK_PASSWORD_LIMITS.address.max);
  });

  it('lets right passwords sent all at once through, checking the hash once', async () => {
    const up = await uploadWith(ctx, owner, { password: PASSWORD });
    const v = freshVisitor();
    const answers = await Promise.all(
      Array.from({ length: 3 * LINK_PASSWORD_LIMITS.address.max }, () =>
        v.get(linkPath(up), { 'x-upshot-password': PASSWORD }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
  });

  it('limits wrong passwords for one link, whatever the address', async () => {
    const up = await uploadWith(ctx, owner, { password: PASSWORD });
    for (let i = 0; i < LINK_PASSWORD_LIMITS.link.max; i++) {
      expect((await freshVisitor().unlock(linkPath(up), `wrong ${i}`)).statusCode).toBe(401);
    }
    expect((await freshVisitor().unlock(linkPath(up), PASSWORD)).statusCode).toBe(429);
    // Other links are not held by it; the owner's signed links skip the password altogether.
    const other = await uploadWith(ctx, owner, { password: PASSWORD });
    expect((await freshVisitor().unlock(linkPath(other), PASSWORD)).statusCode).toBe(303);
    const signed = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${up.id}/access-url`,
      headers: owner,
    });
    const url = new URL(signed.json<{ url: string }>().url);
    const held = await freshVisitor().get(url.pathname + url.search);
    expect(held.statusCode).toBe(200);
    expect(held.body).toBe('hello, link\n');
    ctx.clock.advance(LINK_PASSWORD_LIMITS.link.windowMs);
    expect((await freshVisitor().unlock(linkPath(up), PASSWORD)).statusCode).toBe(303);
  });
});
