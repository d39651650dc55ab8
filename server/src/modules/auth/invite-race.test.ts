/**
 * One invitation, eight registrations at once: exactly one wins (its password, its username,
 * its one session), the seven others are refused cleanly as an invalid invitation and change
 * nothing, and no account is made or lost. For both kinds of invitation (an administrator's new
 * user, an approved access request), several rounds, on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, submitPending } from '../../../test/access-requests.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { signIn } from '../../../test/users.ts';

const RACERS = 8;
const ROUNDS = 3;
const INVALID = { error: 'invalid_invite', message: 'This invitation is invalid or has expired' };

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
  admin = await signIn(ctx, 'admin');
});
afterAll(() => ctx.close());

let ip = 0;
/** An address of its own for each request: registration and sign-in are limited per address. */
const nextIp = () => `10.73.${Math.floor(++ip / 250) % 250}.${ip % 250}`;
let seq = 0;

/** An administrator's new user with an invitation: the user's id and the code. */
async function adminInvite(): Promise<{ userId: string; code: string }> {
  seq += 1;
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/users',
    headers: admin.auth,
    payload: {
      email: `race${seq}@example.com`,
      username: `race${seq}`,
      role: 'user',
      sendInvite: true,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json<{ user: { id: string }; inviteCode: string }>();
  return { userId: body.user.id, code: body.inviteCode };
}

/** An approved access request's account and invitation. */
async function approvalInvite(): Promise<{ userId: string; code: string }> {
  seq += 1;
  const request = await submitPending(ctx, { email: `asked${seq}@example.com` });
  const res = await ctx.app.inject({
    method: 'PATCH',
    url: `/api/access-requests/${request.id}`,
    headers: admin.auth,
    payload: { status: 'approved' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ user: { id: string }; inviteUrl: string }>();
  return { userId: body.user.id, code: new URL(body.inviteUrl).searchParams.get('invite')! };
}

const register = (inviteCode: string, i: number) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { inviteCode, password: `password number ${i}`, username: `racer${seq}_${i}` },
    remoteAddress: nextIp(),
  });

const signsIn = async (email: string, password: string) =>
  (
    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      remoteAddress: nextIp(),
    })
  ).statusCode === 200;

describe.each([
  ['an administrator’s invitation', adminInvite],
  ['an approved access request’s invitation', approvalInvite],
])('%s', (_, invite) => {
  it.each(Array.from({ length: ROUNDS }, (_, i) => i + 1))(
    `round %i: ${RACERS} registrations at once, exactly one account set up`,
    async () => {
      const { userId, code } = await invite();
      const usersBefore = await countRows(ctx, 'users');

      const answers = await Promise.all(
        Array.from({ length: RACERS }, (_, i) => register(code, i)),
      );

      const winners = answers.flatMap((res, i) => (res.statusCode === 200 ? [i] : []));
      expect(winners, answers.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toHaveLength(1);
      const winner = winners[0]!;
      for (const [i, res] of answers.entries()) {
        if (i !== winner) expect(res.json(), `racer ${i}`).toEqual(INVALID);
      }

      // No account made or lost: the invited one took the winner's name and password.
      expect(await countRows(ctx, 'users')).toBe(usersBefore);
      const user = await ctx.modules.users.service.get(userId);
      expect(user.username).toBe(`racer${seq}_${winner}`);
      expect(user.must_change_password).toBe(0);
      const won = answers[winner]!.json<{ token: string; user: { id: string } }>();
      expect(won.user.id).toBe(userId);
      for (let i = 0; i < RACERS; i++) {
        expect(await signsIn(user.email, `password number ${i}`), `password ${i}`).toBe(
          i === winner,
        );
      }
      // One session from the registration (the sign-ins above opened one more), and it works.
      const me = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${won.token}` },
      });
      expect(me.statusCode).toBe(200);
      const sessions = await ctx.handle.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', userId)
        .execute();
      expect(sessions).toHaveLength(2);
      // Used up: a ninth registration, after the race, is refused too.
      expect((await register(code, RACERS)).json()).toEqual(INVALID);
    },
  );
});
