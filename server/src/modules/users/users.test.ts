/** A user with their API token (themself or an admin), and replacing that token. */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;
const getUser = (auth: Auth, id: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/users/${id}`, headers: auth });
const regenerate = (auth: Auth, id: string) =>
  ctx.app.inject({ method: 'POST', url: `/api/users/${id}/api-token`, headers: auth });
const me = (headers: Auth) => ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers });
const apiToken = (token: string) => ({ 'x-api-token': token });

/** The token a user reads for themself. */
async function tokenOf(auth: Auth, id: string): Promise<string> {
  const res = await getUser(auth, id);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().apiToken;
}

/** The stored secrets of a user, none of which may appear in an answer. */
const secretsOf = async (id: string) =>
  ctx.handle.db
    .selectFrom('users')
    .select(['password_hash', 'api_token_digest', 'api_token_encrypted'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('GET /api/users/:id', () => {
  it('answers a user themself with their API token, which authenticates, never cached', async () => {
    const { user, auth } = await signIn(ctx);
    const res = await getUser(auth, user.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    // The user as every endpoint shows them, plus the token: nothing more.
    const shown = await me(auth);
    expect(body).toEqual({
      ...shown.json(),
      apiToken: expect.stringMatching(/^up_[A-Za-z0-9_-]{20,}$/),
    });
    expect(body).toMatchObject({
      id: user.id,
      username: user.username,
      email: user.email,
      role: 'user',
      isActive: true,
      diskUsed: 0,
      diskQuota: Number(user.disk_quota),
      createdAt: user.created_at,
    });
    // No hash, digest or ciphertext, under any name, nor any of the row's secret values.
    expect(Object.keys(body).filter((k) => /hash|digest|encrypt|secret|salt/i.test(k))).toEqual([]);
    const secrets = await secretsOf(user.id);
    for (const value of Object.values(secrets)) expect(res.body).not.toContain(value);

    const byToken = await me(apiToken(body.apiToken));
    expect(byToken.statusCode).toBe(200);
    expect(byToken.json().id).toBe(user.id);
    // The same token each time it is read.
    expect(await tokenOf(auth, user.id)).toBe(body.apiToken);
  });

  it('answers the same through the API token as through a session', async () => {
    const { user, auth } = await signIn(ctx);
    const token = await tokenOf(auth, user.id);
    const res = await getUser(apiToken(token), user.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().apiToken).toBe(token);
  });

  it("answers an admin any user's, with that user's token", async () => {
    const admin = await signIn(ctx, 'admin');
    const plain = await signIn(ctx);
    const own = await tokenOf(plain.auth, plain.user.id);
    const res = await getUser(admin.auth, plain.user.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ id: plain.user.id, email: plain.user.email, apiToken: own });
    expect(res.json().apiToken).not.toBe(await tokenOf(admin.auth, admin.user.id));
  });

  it("refuses another plain user's with 403 and a message, leaking nothing of them", async () => {
    const alice = await signIn(ctx);
    const bob = await signIn(ctx);
    const bobToken = await tokenOf(bob.auth, bob.user.id);
    const res = await getUser(alice.auth, bob.user.id);
    expect(res.statusCode).toBe(403);
    const body = res.json();
    expect(body).toEqual({ error: 'forbidden', message: expect.any(String) });
    expect(body.message.length).toBeGreaterThan(0);
    for (const leak of [bobToken, bob.user.email, bob.user.username]) {
      expect(res.body).not.toContain(leak);
    }
    // Not through an API token either.
    const aliceToken = await tokenOf(alice.auth, alice.user.id);
    expect((await getUser(apiToken(aliceToken), bob.user.id)).statusCode).toBe(403);
  });

  it('answers an admin 404 for an unknown id; a plain user learns nothing (403 alike)', async () => {
    const admin = await signIn(ctx, 'admin');
    const plain = await signIn(ctx);
    const unknown = crypto.randomUUID();
    const res = await getUser(admin.auth, unknown);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
    // Whether an id exists is not told to someone who may not read it.
    const other = await signIn(ctx);
    const a = await getUser(plain.auth, unknown);
    const b = await getUser(plain.auth, other.user.id);
    expect([a.statusCode, b.statusCode]).toEqual([403, 403]);
    expect(a.json()).toEqual(b.json());
  });

  it('answers 401 without credentials, and with a token that is not one', async () => {
    const { user } = await signIn(ctx);
    expect((await getUser({}, user.id)).statusCode).toBe(401);
    expect((await getUser(apiToken('up_not-a-token'), user.id)).statusCode).toBe(401);
    expect((await getUser({ authorization: 'Bearer nope' }, user.id)).statusCode).toBe(401);
  });
});

describe('POST /api/users/:id/api-token', () => {
  it('replaces the token: the old one is refused at once, the new one works and is shown', async () => {
    const { user, auth } = await signIn(ctx);
    const old = await tokenOf(auth, user.id);
    const digestBefore = (await secretsOf(user.id)).api_token_digest;

    const res = await regenerate(auth, user.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { apiToken: fresh } = res.json();
    expect(Object.keys(res.json())).toEqual(['apiToken']);
    expect(fresh).toMatch(/^up_[A-Za-z0-9_-]{20,}$/);
    expect(fresh).not.toBe(old);

    expect((await me(apiToken(old))).statusCode).toBe(401);
    const byNew = await me(apiToken(fresh));
    expect(byNew.statusCode).toBe(200);
    expect(byNew.json().id).toBe(user.id);
    expect(await tokenOf(auth, user.id)).toBe(fresh);
    expect((await secretsOf(user.id)).api_token_digest).not.toBe(digestBefore);
    // The session that asked is not touched.
    expect((await me(auth)).statusCode).toBe(200);
  });

  it('replaces the token that made the request, when made with it', async () => {
    const { user, auth } = await signIn(ctx);
    const old = await tokenOf(auth, user.id);
    const res = await regenerate(apiToken(old), user.id);
    expect(res.statusCode).toBe(200);
    expect((await me(apiToken(old))).statusCode).toBe(401);
    expect((await me(apiToken(res.json().apiToken))).statusCode).toBe(200);
  });

  it("refuses a plain user another's (403); that token keeps working", async () => {
    const alice = await signIn(ctx);
    const bob = await signIn(ctx);
    const bobToken = await tokenOf(bob.auth, bob.user.id);
    const res = await regenerate(alice.auth, bob.user.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
    expect(res.body).not.toContain(bobToken);
    expect((await me(apiToken(bobToken))).statusCode).toBe(200);
    expect(await tokenOf(bob.auth, bob.user.id)).toBe(bobToken);
  });

  it("lets an admin replace a user's: the user's old token stops, the new one is theirs", async () => {
    const admin = await signIn(ctx, 'admin');
    const plain = await signIn(ctx);
    const adminToken = await tokenOf(admin.auth, admin.user.id);
    const old = await tokenOf(plain.auth, plain.user.id);
    const res = await regenerate(admin.auth, plain.user.id);
    expect(res.statusCode).toBe(200);
    const fresh = res.json().apiToken;
    expect((await me(apiToken(old))).statusCode).toBe(401);
    const byNew = await me(apiToken(fresh));
    expect(byNew.json().id).toBe(plain.user.id);
    expect(await tokenOf(plain.auth, plain.user.id)).toBe(fresh);
    // The admin's own token is not the one replaced.
    expect(await tokenOf(admin.auth, admin.user.id)).toBe(adminToken);
    expect((await me(apiToken(adminToken))).statusCode).toBe(200);
  });

  it('hands out only tokens that work: of replacements at once, the losers answer 409', async () => {
    const { user, auth } = await signIn(ctx);
    const old = await tokenOf(auth, user.id);
    const answers = await Promise.all([1, 2, 3].map(() => regenerate(auth, user.id)));
    const statuses = answers.map((r) => r.statusCode);
    expect(
      statuses.every((s) => s === 200 || s === 409),
      String(statuses),
    ).toBe(true);
    const handedOut = answers.filter((r) => r.statusCode === 200).map((r) => r.json().apiToken);
    expect(handedOut.length).toBeGreaterThanOrEqual(1);
    // The one shown is the last committed of those handed out (answers come in request order,
    // not commit order), and only it works: every other one, and the old one, does not.
    const current = await tokenOf(auth, user.id);
    expect(handedOut).toContain(current);
    expect((await me(apiToken(current))).statusCode).toBe(200);
    for (const replaced of [old, ...handedOut.filter((t) => t !== current)]) {
      expect((await me(apiToken(replaced))).statusCode).toBe(401);
    }
    for (const r of answers.filter((a) => a.statusCode === 409)) {
      expect(r.json().error).toBe('conflict');
    }
  });

  it('answers an admin 404 for an unknown id, and 401 without credentials', async () => {
    const admin = await signIn(ctx, 'admin');
    expect((await regenerate(admin.auth, crypto.randomUUID())).statusCode).toBe(404);
    const { user } = await signIn(ctx);
    expect((await regenerate({}, user.id)).statusCode).toBe(401);
  });
});
