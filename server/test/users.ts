/** Users for API tests: created through the users service, signed in over HTTP. */
import crypto from 'node:crypto';
import type { TestContext } from './context.ts';

let counter = 0;
export async function createUser(
  ctx: TestContext,
  overrides: Partial<{
    email: string;
    username: string;
    role: 'user' | 'admin';
    password: string;
  }> = {},
) {
  counter += 1;
  const password = overrides.password ?? 'correct horse battery';
  const row = await ctx.modules.users.service.create({
    email: overrides.email ?? `user${counter}-${crypto.randomBytes(3).toString('hex')}@example.com`,
    username: overrides.username ?? `user${counter}_${crypto.randomBytes(3).toString('hex')}`,
    role: overrides.role ?? 'user',
    password,
  });
  return { row, password };
}

export async function login(ctx: TestContext, email: string, password: string, ip = '10.0.0.1') {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: ip,
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json<{ token: string }>().token;
}

export async function signIn(ctx: TestContext, role: 'user' | 'admin' = 'user') {
  const { row, password } = await createUser(ctx, { role });
  const token = await login(
    ctx,
    row.email,
    password,
    `10.9.${counter % 250}.${(counter * 7) % 250}`,
  );
  return { user: row, token, auth: { authorization: `Bearer ${token}` } };
}
