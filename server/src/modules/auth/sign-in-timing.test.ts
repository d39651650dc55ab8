/**
 * Sign-in tells nothing by its timing: a wrong password for an account that exists and any
 * password for an email that has none take about as long (the unknown email is checked against
 * a hash too), so accounts cannot be listed by timing sign-ins. Measured as medians of many
 * interleaved tries, compared with each other (never with a fixed figure: the machine may be
 * busy), with a generous bound; without the hash the unknown email answers about ten times
 * faster.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { createUser } from '../../../test/users.ts';
import { LOGIN_LIMIT } from './index.ts';

const TRIES = 21;
/** How much slower one kind of failed sign-in may be than the other (medians). */
const MAX_RATIO = 2;

let ctx: TestContext;
let email: string;
beforeAll(async () => {
  ctx = await createTestContext();
  ({
    row: { email },
  } = await createUser(ctx, { password: 'the right password' }));
});
afterAll(() => ctx.close());

let ip = 0;
/** Milliseconds one failed sign-in took; it must be the plain refusal, not a rate limit. */
async function timeSignIn(as: string, password: string): Promise<number> {
  // A new window each time: the limits must not answer (faster) instead of the password check.
  ctx.clock.advance(LOGIN_LIMIT.windowMs);
  ip += 1;
  const started = performance.now();
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: as, password },
    remoteAddress: `10.74.${Math.floor(ip / 250) % 250}.${ip % 250}`,
  });
  const ms = performance.now() - started;
  expect(res.statusCode).toBe(401);
  expect(res.json()).toEqual({ error: 'unauthorized', message: 'Invalid credentials' });
  return ms;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

it('takes as long for a wrong password as for an email that has no account', async () => {
  const wrongPassword: number[] = [];
  const noAccount: number[] = [];
  // Interleaved, so a busy moment of the machine weighs on both alike; the first pair warms up.
  for (let i = 0; i <= TRIES; i++) {
    const a = await timeSignIn(email, `wrong password ${i}`);
    const b = await timeSignIn(`nobody-${i}@example.com`, `any password ${i}`);
    if (i > 0) {
      wrongPassword.push(a);
      noAccount.push(b);
    }
  }
  const [existing, missing] = [median(wrongPassword), median(noAccount)];
  const ratio = Math.max(existing, missing) / Math.min(existing, missing);
  expect(
    ratio,
    `median ${existing.toFixed(1)} ms for a wrong password, ${missing.toFixed(1)} ms for no account`,
  ).toBeLessThan(MAX_RATIO);
});
