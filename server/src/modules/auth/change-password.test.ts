/**
 * Changing one's own password: the checks that refuse it (and change nothing), the sessions it
 * signs out, the API token it leaves alone, the must-change flag, and its limit on guesses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { createUser } from '../../../test/users.ts';
import { LOGIN_LIMIT } from './index.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;
const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'staple tuna 42';

// Sign-in is limited per address: every attempt here comes from an address of its own.
let addresses = 0;
const nextAddress = () => {
  addresses += 1;
  return `10.77.${Math.floor(addresses / 250)}.${addresses % 250}`;
};

/** A sign-in attempt's status and, on success, the session's headers. */
async function attempt(email: string, password: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: nextAddress(),
  });
  const auth: Auth | null =
    res.statusCode === 200 ? { authorization: `Bearer ${res.json().token}` } : null;
  return { status: res.statusCode, auth };
}

async function session(email: string, password = PASSWORD): Promise<Auth> {
  const { status, auth } = await attempt(email, password);
  expect(status).toBe(200);
  return auth!;
}

/** A user signed in once, with their API token. */
async function account() {
  const { row } = await createUser(ctx, { password: PASSWORD });
  const auth = await session(row.email);
  const res = await ctx.app.inject({ method: 'GET', url: `/api/users/${row.id}`, headers: auth });
  expect(res.statusCode).toBe(200);
  return { user: row, auth, apiToken: { 'x-api-token': res.json().apiToken as string } };
}

const change = (auth: Auth, id: string, payload: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/users/${id}/change-password`,
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
const meStatus = async (headers: Auth) =>
  (await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode;
const passwordHashOf = async (id: string) =>
  (
    await ctx.handle.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).password_hash;
const sessionCount = async (userId: string) =>
  (await ctx.handle.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute())
    .length;

/**
 * Moves the test clock to the start of the next rate-limit window, so a test's attempts
 * (argon2 makes each take a while) do not straddle a boundary.
 */
function startOfNextLimitWindow() {
  const now = ctx.clock.now().getTime();
  ctx.clock.advance(LOGIN_LIMIT.windowMs - (now % LOGIN_LIMIT.windowMs));
}

describe('POST /api/users/:id/change-password', () => {
  it('changes the password: the old one is refused at sign-in, the new one signs in', async () => {
    const { user, auth } = await account();
    const res = await change(auth, user.id, {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect((await attempt(user.email, PASSWORD)).status).toBe(401);
    expect((await attempt(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('signs out every other session of the user; the one that made the change stays', async () => {
    const { user, auth, apiToken } = await account();
    const others = [await session(user.email), await session(user.email)];
    // Someone else's session is not theirs to lose.
    const bystander = await account();
    expect(await sessionCount(user.id)).toBe(3);

    const res = await change(auth, user.id, {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(204);
    for (const other of others) expect(await meStatus(other)).toBe(401);
    expect(await meStatus(auth)).toBe(200);
    expect(await sessionCount(user.id)).toBe(1);
    // The API token is not a session: desktop uploaders keep working.
    expect(await meStatus(apiToken)).toBe(200);
    expect(await meStatus(bystander.auth)).toBe(200);
  });

  it('is refused to the API token (403): a token kept in uploader files cannot take the account', async () => {
    const { user, auth, apiToken } = await account();
    const other = await session(user.email);
    const hash = await passwordHashOf(user.id);
    const res = await change(apiToken, user.id, {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'forbidden', message: expect.any(String) });
    expect(await passwordHashOf(user.id)).toBe(hash);
    expect(await meStatus(auth)).toBe(200);
    expect(await meStatus(other)).toBe(200);
    expect(await meStatus(apiToken)).toBe(200);
    expect((await attempt(user.email, PASSWORD)).status).toBe(200);
  });

  it('clears the must-change flag', async () => {
    const { user, auth } = await account();
    await ctx.handle.db
      .updateTable('users')
      .set({ must_change_password: 1 })
      .where('id', '=', user.id)
      .execute();
    const flag = async () =>
      (
        await ctx.handle.db
          .selectFrom('users')
          .select('must_change_password')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow()
      ).must_change_password;
    expect(await flag()).toBe(1);
    // Until it is changed, nothing else is allowed.
    const listUploads = () => ctx.app.inject({ method: 'GET', url: '/api/uploads', headers: auth });
    const blocked = await listUploads();
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error).toBe('password_change_required');

    const res = await change(auth, user.id, {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(204);
    expect(await flag()).toBe(0);
    expect((await listUploads()).statusCode).toBe(200);
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: auth })).json(),
    ).toMatchObject({ id: user.id, mustChangePassword: false });
  });

  it('refuses a wrong current password with 400, and changes nothing', async () => {
    const { user, auth } = await account();
    const other = await session(user.email);
    const hash = await passwordHashOf(user.id);
    const res = await change(auth, user.id, {
      currentPassword: 'not my password',
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'validation_error',
      message: 'Current password is incorrect',
    });
    expect(await passwordHashOf(user.id)).toBe(hash);
    expect(await meStatus(other)).toBe(200);
    expect(await meStatus(auth)).toBe(200);
    expect((await attempt(user.email, NEW_PASSWORD)).status).toBe(401);
    expect((await attempt(user.email, PASSWORD)).status).toBe(200);
  });

  it('refuses a malformed request with 400 before checking anything, and changes nothing', async () => {
    const { user, auth } = await account();
    const hash = await passwordHashOf(user.id);
    const short = await change(auth, user.id, {
      currentPassword: PASSWORD,
      newPassword: 'seven77',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe('validation_error');
    expect(short.json().message).toContain('Password must be at least 8 characters');

    const bad: [unknown, string][] = [
      [{ newPassword: NEW_PASSWORD }, 'currentPassword'],
      [{ currentPassword: '', newPassword: NEW_PASSWORD }, 'currentPassword'],
      [{ currentPassword: PASSWORD }, 'newPassword'],
      [{ currentPassword: PASSWORD, newPassword: 12345678 }, 'newPassword'],
      [{ currentPassword: PASSWORD, newPassword: NEW_PASSWORD, role: 'admin' }, 'role'],
      [
        { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, mustChangePassword: false },
        'mustChangePassword',
      ],
    ];
    for (const [payload, field] of bad) {
      const res = await change(auth, user.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error, JSON.stringify(payload)).toBe('validation_error');
      expect(res.json().message, JSON.stringify(payload)).toContain(field);
    }
    expect(await passwordHashOf(user.id)).toBe(hash);
    expect((await attempt(user.email, PASSWORD)).status).toBe(200);
  });

  it('refuses the current password as the new one (400), changing nothing', async () => {
    const { user, auth } = await account();
    const other = await session(user.email);
    const hash = await passwordHashOf(user.id);
    const res = await change(auth, user.id, { currentPassword: PASSWORD, newPassword: PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'validation_error', message: expect.any(String) });
    expect(await passwordHashOf(user.id)).toBe(hash);
    expect(await meStatus(other)).toBe(200);
  });

  it("refuses another user's, even to an admin (403), leaving their password and sessions", async () => {
    const victim = await account();
    const hash = await passwordHashOf(victim.user.id);
    const plain = await account();
    const { row: adminRow } = await createUser(ctx, { role: 'admin', password: PASSWORD });
    const admin = await session(adminRow.email);
    for (const [caller, currentPassword] of [
      [plain.auth, PASSWORD], // the same password as the victim's, as it happens
      [admin, PASSWORD],
    ] as const) {
      const res = await change(caller, victim.user.id, {
        currentPassword,
        newPassword: NEW_PASSWORD,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    expect(await passwordHashOf(victim.user.id)).toBe(hash);
    expect(await meStatus(victim.auth)).toBe(200);
    expect((await attempt(victim.user.email, PASSWORD)).status).toBe(200);
    // Nor do the callers' own passwords change.
    expect((await attempt(plain.user.email, PASSWORD)).status).toBe(200);
    expect((await attempt(adminRow.email, PASSWORD)).status).toBe(200);
  });

  it('answers 401 without credentials', async () => {
    const { user } = await createUser(ctx).then((u) => ({ user: u.row }));
    const res = await change({}, user.id, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(401);
  });
});

describe('guessing the current password', () => {
  it('is limited after 10 wrong guesses a minute (429, even for the right one), then allowed again', async () => {
    const { user, auth } = await account();
    const hash = await passwordHashOf(user.id);
    startOfNextLimitWindow();
    for (let i = 0; i < LOGIN_LIMIT.max; i++) {
      const res = await change(auth, user.id, {
        currentPassword: `wrong guess ${i}`,
        newPassword: NEW_PASSWORD,
      });
      expect(res.statusCode, `guess ${i}`).toBe(400);
    }
    for (const currentPassword of ['wrong again', PASSWORD]) {
      const res = await change(auth, user.id, { currentPassword, newPassword: NEW_PASSWORD });
      expect(res.statusCode).toBe(429);
      expect(res.json().error).toBe('rate_limited');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await passwordHashOf(user.id)).toBe(hash);
    // Another user is not limited by it.
    const other = await account();
    const res = await change(other.auth, other.user.id, {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(204);

    startOfNextLimitWindow();
    const later = await change(auth, user.id, {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(later.statusCode).toBe(204);
  });

  it('is limited for guesses sent all at once too: no more than 10 are checked in a minute', async () => {
    const { user, auth } = await account();
    startOfNextLimitWindow();
    const answers = await Promise.all(
      Array.from({ length: 3 * LOGIN_LIMIT.max }, (_, i) =>
        change(auth, user.id, {
          currentPassword: `parallel guess ${i}`,
          newPassword: NEW_PASSWORD,
        }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s !== 400 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(LOGIN_LIMIT.max);
  });
});

describe('changes racing each other or a sign-in', () => {
  it('two changes from the same current password: one wins (204), the other is refused (400)', async () => {
    const { user, auth } = await account();
    const candidates = ['first new password', 'second new password'];
    const answers = await Promise.all(
      candidates.map((newPassword) =>
        change(auth, user.id, { currentPassword: PASSWORD, newPassword }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([204, 400]);
    // The password that works is the one whose change answered 204.
    const winner = candidates[answers.findIndex((r) => r.statusCode === 204)]!;
    const loser = candidates.find((c) => c !== winner)!;
    expect((await attempt(user.email, loser)).status).toBe(401);
    expect((await attempt(user.email, winner)).status).toBe(200);
  });

  it('a sign-in with the old password racing the change leaves no session open', async () => {
    for (let round = 0; round < 5; round++) {
      const { user, auth } = await account();
      const [signedIn, changed] = await Promise.all([
        attempt(user.email, PASSWORD),
        change(auth, user.id, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }),
      ]);
      expect(changed.statusCode).toBe(204);
      expect([200, 401]).toContain(signedIn.status);
      if (signedIn.auth) expect(await meStatus(signedIn.auth)).toBe(401);
      expect(await sessionCount(user.id)).toBe(1); // only the session that made the change
    }
  });
});
