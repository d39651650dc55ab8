/**
 * Invitations and registration: an invitation (from an administrator creating a user, or from
 * an approved access request) is looked up, then used once to choose a password and sign in;
 * used, expired and garbage codes, usernames, mass assignment and the rate limits (codes raced
 * at once: invite-race.test.ts).
 */
import { INVITE_TTL_MS } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitPending } from '../../../test/access-requests.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { createUser, login, signIn } from '../../../test/users.ts';
import { LOGIN_LIMIT } from './index.ts';

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
  admin = await signIn(ctx, 'admin');
});
afterAll(() => ctx.close());

type Headers = Record<string, string>;
const INVALID = 'This invitation is invalid or has expired';

let ip = 0;
const nextIp = () => `10.72.${Math.floor(++ip / 200) % 250}.${ip % 200}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  auth: Headers,
  body?: unknown,
) =>
  ctx.app.inject({
    method,
    url,
    headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const me = (auth: Headers) => call('GET', '/api/auth/me', auth);

const inviteInfo = (code: string, remoteAddress = nextIp()) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/auth/invites/${encodeURIComponent(code)}`,
    remoteAddress,
  });
const register = (body: unknown, remoteAddress = nextIp()) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
    remoteAddress,
  });
const signInWith = (email: string, password: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: nextIp(),
  });

let seq = 0;
/** A user an administrator created with an invitation: their temporary password and code. */
async function invited(overrides: Record<string, unknown> = {}) {
  seq += 1;
  const res = await call('POST', '/api/users', admin.auth, {
    email: `invitee${seq}-${Date.now().toString(36)}@example.com`,
    username: `invitee${seq}_${Date.now().toString(36)}`,
    sendInvite: true,
    ...overrides,
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json<{
    user: { id: string; email: string; username: string };
    tempPassword: string;
    inviteCode: string;
  }>();
  return { user: body.user, tempPassword: body.tempPassword, code: body.inviteCode };
}

function expectInvalid(res: { statusCode: number; json: () => unknown }) {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ error: 'invalid_invite', message: INVALID });
}

/** The invitation still works: it is looked up (from another address) for this user. */
async function expectUsable(code: string, userId: string) {
  const res = await inviteInfo(code);
  expect(res.statusCode, res.body).toBe(200);
  const user = await ctx.modules.users.service.get(userId);
  expect(res.json()).toMatchObject({ email: user.email, username: user.username });
}

/** Moves the clock to the start of the next one-minute rate-limit window. */
function startOfNextWindow() {
  const now = ctx.clock.now().getTime();
  ctx.clock.advance(LOGIN_LIMIT.windowMs - (now % LOGIN_LIMIT.windowMs));
}

describe('an invitation from POST /api/users', () => {
  it('shows who it is for, then sets the password once and signs the user in', async () => {
    const { user, tempPassword, code } = await invited();
    const oldSession = bearer(await login(ctx, user.email, tempPassword, nextIp()));
    expect((await me(oldSession)).json().mustChangePassword).toBe(true);

    const info = await inviteInfo(code);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.headers['cache-control']).toBe('no-store');
    const { expiresAt } = info.json();
    expect(info.json()).toEqual({ email: user.email, username: user.username, expiresAt });
    expect(Date.parse(expiresAt) - ctx.clock.now().getTime()).toBeGreaterThan(INVITE_TTL_MS - 60e3);
    expect(Date.parse(expiresAt) - ctx.clock.now().getTime()).toBeLessThanOrEqual(INVITE_TTL_MS);

    const res = await register({ inviteCode: code, password: 'a password of my own' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['token', 'user']);
    expect(body.user).toMatchObject({
      id: user.id,
      email: user.email,
      username: user.username,
      role: 'user',
      isActive: true,
      mustChangePassword: false,
    });
    expect(res.body).not.toMatch(/hash|digest|argon/i);

    const session = bearer(body.token);
    expect((await me(session)).json()).toMatchObject({ id: user.id, mustChangePassword: false });
    expect((await call('GET', '/api/uploads', session)).statusCode).toBe(200);
    // The session opened with the temporary password is gone, and so is that password.
    expect((await me(oldSession)).statusCode).toBe(401);
    expect((await signInWith(user.email, tempPassword)).statusCode).toBe(401);
    expect((await signInWith(user.email, 'a password of my own')).statusCode).toBe(200);

    expectInvalid(await register({ inviteCode: code, password: 'taking it over' }));
    expectInvalid(await inviteInfo(code));
    expect((await signInWith(user.email, 'taking it over')).statusCode).toBe(401);
    expect((await me(session)).statusCode).toBe(200);
  });

  it('keeps the username unless another free one is asked for; a taken one is a 409', async () => {
    const { user, code } = await invited();
    const other = await createUser(ctx, { username: 'Taken.Name' });
    const taken = await register({
      inviteCode: code,
      password: 'long enough',
      username: 'taken.NAME',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      error: 'conflict',
      message: 'A user with this username already exists',
    });
    await expectUsable(code, user.id);
    expect((await signInWith(user.email, 'long enough')).statusCode).toBe(401);
    expect((await ctx.modules.users.service.get(other.row.id)).username).toBe('Taken.Name');

    const res = await register({
      inviteCode: code,
      password: 'long enough',
      username: ' my.name ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.username).toBe('my.name');
    expect((await me(bearer(res.json().token))).json().username).toBe('my.name');
  });

  it('refuses a password under 8 characters, and the invitation stays usable', async () => {
    const { user, code } = await invited();
    const short = await register({ inviteCode: code, password: '1234567' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe('validation_error');
    // Field errors are named by their path ("password: ...").
    expect(short.json().message).toMatch(/\bPassword must be at least 8 characters$/);
    await expectUsable(code, user.id);
    expect((await register({ inviteCode: code, password: '12345678' })).statusCode).toBe(200);
  });

  it('refuses fields outside the schema (mass assignment) and applies none of them', async () => {
    const { user, tempPassword, code } = await invited();
    const bodies = [
      { inviteCode: code, password: 'long enough', role: 'admin' },
      { inviteCode: code, password: 'long enough', mustChangePassword: false },
      { inviteCode: code, password: 'long enough', isActive: true },
      { inviteCode: code, password: 'long enough', email: 'mine@example.com' },
      { inviteCode: code, password: 'long enough', diskQuota: 1e15 },
      { inviteCode: code, password: 'long enough', id: 'chosen' },
      { inviteCode: code },
      { password: 'long enough' },
      { inviteCode: '', password: 'long enough' },
      { inviteCode: code, password: 'long enough', username: '' },
    ];
    for (const body of bodies) {
      const res = await register(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('validation_error');
    }
    await expectUsable(code, user.id);
    const row = await ctx.modules.users.service.get(user.id);
    expect(row).toMatchObject({ role: 'user', must_change_password: 1, email: user.email });
    expect((await signInWith(user.email, tempPassword)).statusCode).toBe(200);
    expect((await signInWith(user.email, 'long enough')).statusCode).toBe(401);
  });
});

describe('an invitation from an approved access request', () => {
  it('lets the requester choose a password and sign in', async () => {
    const request = await submitPending(ctx, { name: 'Ada Lovelace' });
    const approved = await call('PATCH', `/api/access-requests/${request.id}`, admin.auth, {
      status: 'approved',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const code = new URL(approved.json().inviteUrl).searchParams.get('invite')!;
    const info = await inviteInfo(code);
    expect(info.json()).toMatchObject({ email: request.email, username: 'ada.lovelace' });

    const res = await register({ inviteCode: code, password: 'analytical engine' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({
      email: request.email,
      username: 'ada.lovelace',
      mustChangePassword: false,
    });
    expect((await me(bearer(res.json().token))).statusCode).toBe(200);
    expect((await signInWith(request.email, 'analytical engine')).statusCode).toBe(200);
    expectInvalid(await register({ inviteCode: code, password: 'analytical engine' }));
  });
});

describe('unusable invitations', () => {
  it('refuses garbage codes the same way as used ones', async () => {
    for (const code of ['x', 'not-a-real-code', 'A'.repeat(32), 'abc def', '../../etc']) {
      expectInvalid(await inviteInfo(code));
      expectInvalid(await register({ inviteCode: code, password: 'long enough' }));
    }
    // Past the router's parameter length, a path is a 414; in a body, past 200 characters a 400.
    expect((await inviteInfo('A'.repeat(201))).statusCode).toBe(414);
    expect((await inviteInfo('a\u0000b')).statusCode).toBe(400);
    for (const code of ['A'.repeat(201), 'a\u0000b']) {
      const res = await register({ inviteCode: code, password: 'long enough' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('validation_error');
    }
  });

  it("refuses a deactivated user's invitation, which works again once they are reactivated", async () => {
    const { user, tempPassword, code } = await invited();
    const off = await call('PATCH', `/api/users/${user.id}`, admin.auth, { isActive: false });
    expect(off.statusCode).toBe(200);
    expectInvalid(await inviteInfo(code));
    expectInvalid(await register({ inviteCode: code, password: 'long enough' }));
    expect((await ctx.modules.users.service.get(user.id)).is_active).toBe(0);

    await call('PATCH', `/api/users/${user.id}`, admin.auth, { isActive: true });
    expect((await signInWith(user.email, tempPassword)).statusCode).toBe(200);
    expect((await register({ inviteCode: code, password: 'long enough' })).statusCode).toBe(200);
  });

  it("refuses a deleted user's invitation", async () => {
    const { user, code } = await invited();
    expect((await call('DELETE', `/api/users/${user.id}`, admin.auth)).statusCode).toBe(204);
    expectInvalid(await inviteInfo(code));
    expectInvalid(await register({ inviteCode: code, password: 'long enough' }));
  });

  it('no longer resets the password once the user has chosen their own', async () => {
    // The credentials email carries both the temporary password and the link: a user who
    // signs in with the first and picks a password must not leave the second able to reset it.
    const { user, tempPassword, code } = await invited();
    const session = bearer(await login(ctx, user.email, tempPassword, nextIp()));
    const changed = await call('POST', `/api/users/${user.id}/change-password`, session, {
      currentPassword: tempPassword,
      newPassword: 'chosen by the owner',
    });
    expect(changed.statusCode, changed.body).toBe(204);
    expectInvalid(await inviteInfo(code));
    expectInvalid(await register({ inviteCode: code, password: 'someone else' }));
    expect((await signInWith(user.email, 'chosen by the owner')).statusCode).toBe(200);
    expect((await me(session)).statusCode).toBe(200);
  });

  it('expires after 7 days', async () => {
    const { user, code } = await invited();
    ctx.clock.advance(INVITE_TTL_MS - 60_000);
    await expectUsable(code, user.id);
    ctx.clock.advance(2 * 60_000);
    expectInvalid(await inviteInfo(code));
    expectInvalid(await register({ inviteCode: code, password: 'long enough' }));
    expect((await ctx.modules.users.service.get(user.id)).must_change_password).toBe(1);
  });
});

describe('rate limits', () => {
  it('allows 10 registrations a minute per address; the 11th is a 429 and uses nothing', async () => {
    const { user, code } = await invited();
    startOfNextWindow();
    const address = '198.51.100.20';
    for (let i = 0; i < LOGIN_LIMIT.max; i += 1) {
      expectInvalid(await register({ inviteCode: `guess-${i}`, password: 'long enough' }, address));
    }
    const limited = await register({ inviteCode: code, password: 'long enough' }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');
    expect(limited.json().message).toMatch(/^Too many attempts\. Try again in \d+ seconds?\.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await expectUsable(code, user.id);
    expect((await register({ inviteCode: code, password: 'long enough' })).statusCode).toBe(200);
  });

  it('allows 10 invitation look-ups a minute per address; the 11th is a 429', async () => {
    const { code } = await invited();
    startOfNextWindow();
    const address = '198.51.100.21';
    for (let i = 0; i < LOGIN_LIMIT.max; i += 1) {
      expectInvalid(await inviteInfo(`guess-${i}`, address));
    }
    const limited = await inviteInfo(code, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');
    expect((await inviteInfo(code)).statusCode).toBe(200);
    ctx.clock.advance(LOGIN_LIMIT.windowMs);
    expect((await inviteInfo(code, address)).statusCode).toBe(200);
  });
});
