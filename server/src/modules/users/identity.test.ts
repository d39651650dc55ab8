/** Emails and usernames compare in one normal form (NFKC, lower case) on both engines. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { login } from '../../../test/users.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    ADMIN_EMAIL: 'Ünal@Example.com',
    ADMIN_USERNAME: 'Ünal',
    ADMIN_PASSWORD: 'correct horse battery',
  });
  await ctx.modules.users.service.ensureFirstAdmin(ctx.config.admin);
});
afterAll(() => ctx.close());

describe('an account with a non-ASCII email', () => {
  it('signs in with the email in any case (it never could on SQLite)', async () => {
    for (const email of ['Ünal@Example.com', 'ünal@example.com', 'ÜNAL@EXAMPLE.COM']) {
      await expect(login(ctx, email, 'correct horse battery')).resolves.toBeTruthy();
    }
  });

  it('keeps the email as entered for display', async () => {
    const token = await login(ctx, 'ünal@example.com', 'correct horse battery');
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.json()).toMatchObject({ email: 'Ünal@Example.com', username: 'Ünal' });
  });

  it('refuses another account whose email or username differs only in case or width', async () => {
    const create = (email: string, username: string) =>
      ctx.modules.users.service.create({ email, username, role: 'user', password: 'whatever12' });
    await expect(create('ÜNAL@example.com', 'someone')).rejects.toThrow(
      'A user with this email already exists',
    );
    await expect(create('other@example.com', 'ÜNAL')).rejects.toThrow(
      'A user with this username already exists',
    );
    // Fullwidth letters are the same letters once NFKC-normalized.
    await expect(create('ｕｎａｌ2@example.com', 'x1')).resolves.toBeTruthy();
    await expect(create('unal2@example.com', 'x2')).rejects.toThrow('already exists');
  });
});
