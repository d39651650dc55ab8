import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { createUser, login } from '../../../test/users.ts';
import { createUsersRepository } from '../users/repository.ts';
import {
  LIMITED_ACCOUNT_DELAY_MS,
  LIMITED_ACCOUNT_LANE_MS,
  LOGIN_LIMIT,
  SESSION_TTL_MS,
} from './index.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/**
 * Moves the test clock to the start of the next rate-limit window: windows are fixed, and a
 * test's attempts (argon2 makes each take a while) must not straddle a boundary.
 */
function startOfNextLoginWindow() {
  const now = ctx.clock.now().getTime();
  ctx.clock.advance(LOGIN_LIMIT.windowMs - (now % LOGIN_LIMIT.windowMs));
}

/** Every rate-limit counter, to check that a limited request wrote nothing. */
const rateLimitRows = () =>
  ctx.handle.db.selectFrom('rate_limits').selectAll().orderBy('key').execute();

const me = (headers: Record<string, string>) =>
  ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('POST /api/auth/login', () => {
  it('signs in by email, case-insensitively, and returns a token and the user', async () => {
    const { row, password } = await createUser(ctx, {
      email: 'Alice.Smith@Example.com',
      username: 'alice',
    });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'alice.smith@EXAMPLE.com', password },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toEqual({
      id: row.id,
      username: 'alice',
      email: 'Alice.Smith@Example.com',
      role: 'user',
      isActive: true,
      diskUsed: 0,
      diskQuota: 10 * 1024 ** 3,
      createdAt: row.created_at,
      mustChangePassword: false,
    });
    expect(res.body).not.toMatch(/hash|digest|argon/i);

    const current = await me(bearer(body.token));
    expect(current.statusCode).toBe(200);
    expect(current.json().id).toBe(row.id);
  });

  it('answers 401 "Invalid credentials" for a wrong password and for an unknown email alike', async () => {
    const { row } = await createUser(ctx);
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: row.email, password: 'not the password' },
    });
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody-here@example.com', password: 'whatever1' },
    });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'unauthorized', message: 'Invalid credentials' });
    }
  });

  it('refuses an inactive user even with the right password', async () => {
    const { row, password } = await createUser(ctx);
    await login(ctx, row.email, password);
    await createUsersRepository(ctx.handle.db).setActive(row.id, false);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: row.email, password },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid credentials');
  });

  it('signs out an existing session once the user is deactivated', async () => {
    const { row, password } = await createUser(ctx);
    const token = await login(ctx, row.email, password);
    await createUsersRepository(ctx.handle.db).setActive(row.id, false);
    expect((await me(bearer(token))).statusCode).toBe(401);
  });

  it('names the wrong field with 400 and rejects a body that is not JSON', async () => {
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@example.com' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'validation_error', message: 'password is required' });

    const badEmail = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'not-an-email', password: 'x' },
    });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().message).toMatch(/^email: /);

    const notJson = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error).toBe('validation_error');
  });

  it('limits failed sign-ins per account without locking its owner out', async () => {
    const { row, password } = await createUser(ctx);
    startOfNextLoginWindow();
    const attempt = (pw: string, ip: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: row.email, password: pw },
        remoteAddress: ip,
      });
    // Someone fails ten times from ten addresses: the account is now limited.
    for (let i = 0; i < LOGIN_LIMIT.max; i++) {
      expect((await attempt('wrong-password', `10.1.0.${i + 1}`)).statusCode).toBe(401);
    }
    // An address that failed on it is refused, even with the right password, writing nothing.
    const before = await rateLimitRows();
    const limited = await attempt(password, '10.1.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');
    expect(limited.json().message).toMatch(
      /^Too many sign-in attempts\. Try again in \d+ seconds?\.$/,
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await rateLimitRows()).toEqual(before);

    // The owner, from an address that has not failed on it, gets in after a short pause.
    ctx.sleeps.length = 0;
    const owner = await attempt(password, '10.1.1.1');
    expect(owner.statusCode).toBe(200);
    expect(ctx.sleeps).toEqual([LIMITED_ACCOUNT_DELAY_MS]);

    // Fresh addresses share one lane: one checked attempt per lane, however many there are.
    ctx.clock.advance(LIMITED_ACCOUNT_LANE_MS);
    expect((await attempt('wrong-again', '10.1.1.2')).statusCode).toBe(401);
    expect((await attempt('wrong-again', '10.1.1.3')).statusCode).toBe(429);
    // And an address that failed on it is refused for the rest of the window.
    ctx.clock.advance(LIMITED_ACCOUNT_LANE_MS);
    expect((await attempt(password, '10.1.1.2')).statusCode).toBe(429);

    // A new window lets every address through again.
    ctx.clock.advance(LOGIN_LIMIT.windowMs);
    await expect(login(ctx, row.email, password, '10.1.0.1')).resolves.toBeTruthy();
  });

  it('keeps guessing from many addresses as slow as the limit, once the account is limited', async () => {
    const { row } = await createUser(ctx);
    startOfNextLoginWindow();
    const attempt = (ip: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: row.email, password: 'a guess' },
        remoteAddress: ip,
      });
    const answers: number[] = [];
    for (let i = 0; i < 40; i++)
      answers.push((await attempt(`10.3.${i >> 8}.${i & 255}`)).statusCode);
    // Ten failures make the limit; after that a guess is checked once per lane at most (the
    // test runs well inside one minute, so a handful of lanes), the rest refused unchecked.
    const checked = answers.filter((s) => s === 401).length;
    expect(checked).toBeGreaterThanOrEqual(LOGIN_LIMIT.max);
    expect(checked).toBeLessThanOrEqual(
      LOGIN_LIMIT.max + Math.ceil(LOGIN_LIMIT.windowMs / LIMITED_ACCOUNT_LANE_MS),
    );
    expect(answers.filter((s) => s === 429).length).toBe(40 - checked);
    ctx.clock.advance(LOGIN_LIMIT.windowMs);
  });

  it('rate-limits sign-in per address, across emails', async () => {
    startOfNextLoginWindow();
    for (let i = 0; i < LOGIN_LIMIT.max; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: `spray${i}@example.com`, password: 'wrong-password' },
        remoteAddress: '10.2.0.1',
      });
      expect(res.statusCode).toBe(401);
    }
    // Limited: refused before anything is counted, so a new email leaves no row behind.
    const before = await rateLimitRows();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'spray-last@example.com', password: 'wrong-password' },
      remoteAddress: '10.2.0.1',
    });
    expect(res.statusCode).toBe(429);
    expect(await rateLimitRows()).toEqual(before);
    expect(JSON.stringify(before)).not.toContain('spray-last');
    ctx.clock.advance(LOGIN_LIMIT.windowMs);
  });
});

describe('sessions', () => {
  it('logout revokes the token', async () => {
    const { row, password } = await createUser(ctx);
    const token = await login(ctx, row.email, password);
    const out = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(token),
    });
    expect(out.statusCode).toBe(204);
    const after = await me(bearer(token));
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ error: 'unauthorized', message: 'Authentication required' });
  });

  it('expires a session left unused for 30 days', async () => {
    const { row, password } = await createUser(ctx);
    const token = await login(ctx, row.email, password);
    ctx.clock.advance(SESSION_TTL_MS + 1000);
    expect((await me(bearer(token))).statusCode).toBe(401);
  });

  it('slides the expiry forward while the session is used', async () => {
    const { row, password } = await createUser(ctx);
    const token = await login(ctx, row.email, password);
    const day = 24 * 60 * 60 * 1000;
    ctx.clock.advance(20 * day);
    expect((await me(bearer(token))).statusCode).toBe(200);
    ctx.clock.advance(20 * day); // 40 days after login, 20 after last use
    expect((await me(bearer(token))).statusCode).toBe(200);
  });

  it('stores only a digest of the session token', async () => {
    const { row, password } = await createUser(ctx);
    const token = await login(ctx, row.email, password);
    const sessions = await ctx.handle.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', row.id)
      .execute();
    expect(sessions).toHaveLength(1);
    expect(JSON.stringify(sessions)).not.toContain(token);
  });

  it('answers 401 for a malformed or unknown bearer token', async () => {
    expect((await me({ authorization: 'Bearer nope' })).statusCode).toBe(401);
    expect((await me({ authorization: 'Basic abc' })).statusCode).toBe(401);
    expect((await me({})).statusCode).toBe(401);
  });
});

describe('X-API-Token', () => {
  it('authenticates a desktop client by its personal API token', async () => {
    const { row } = await createUser(ctx);
    const apiToken = ctx.modules.users.service.revealApiToken(row);
    expect(apiToken).toMatch(/^up_/);
    const res = await me({ 'x-api-token': apiToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(row.id);
    expect((await me({ 'x-api-token': `${apiToken}x` })).statusCode).toBe(401);
  });

  it('keeps the API token only encrypted and as a digest in the database', async () => {
    const { row } = await createUser(ctx);
    const apiToken = ctx.modules.users.service.revealApiToken(row);
    const stored = await ctx.handle.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(apiToken);
    expect(JSON.stringify(stored)).not.toContain(apiToken.slice(3));
  });
});

describe('errors', () => {
  it('answers unknown /api routes with a 404 JSON body', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: 'not_found',
      message: 'No route for GET /api/nothing-here',
    });
  });
});

describe('credentials in two headers', () => {
  it('an unusable Authorization header does not hide a valid X-API-Token', async () => {
    const { row } = await createUser(ctx);
    const apiToken = ctx.modules.users.service.revealApiToken(row);
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer not-a-session', 'Digest x']) {
      const res = await me({ authorization, 'x-api-token': apiToken });
      expect(res.statusCode, authorization).toBe(200);
      expect(res.json().id).toBe(row.id);
    }
  });
});
