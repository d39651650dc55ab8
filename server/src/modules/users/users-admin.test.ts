/**
 * Managing users (administrators): listing, creating with a temporary password that must be
 * changed, changing status, role, quota and username, resetting passwords, deleting users with
 * their files; the last-admin guards, access, mass assignment and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, filesUnder, type TestContext } from '../../../test/context.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { createUser, login, signIn } from '../../../test/users.ts';

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
  admin = await signIn(ctx, 'admin');
});
afterAll(() => ctx.close());

type Headers = Record<string, string>;
let ip = 0;
const nextIp = () => `10.44.${Math.floor(++ip / 200)}.${ip % 200}`;

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
const apiTokenOf = async (userId: string) =>
  ctx.modules.users.service.revealApiToken(await ctx.modules.users.service.get(userId));
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function createViaApi(body: Record<string, unknown>) {
  const res = await call('POST', '/api/users', admin.auth, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{
    user: {
      id: string;
      email: string;
      username: string;
      role: string;
      mustChangePassword: boolean;
    };
    tempPassword: string;
    inviteCode: string | null;
    inviteUrl: string | null;
    emailSent: boolean;
  }>();
}

async function auditActions(targetId: string): Promise<string[]> {
  const rows = await ctx.handle.db
    .selectFrom('audit_log')
    .select(['action', 'actor_id', 'details'])
    .where('target_id', '=', targetId)
    .orderBy('created_at')
    .execute();
  for (const r of rows) expect(r.actor_id).toBe(admin.user.id);
  return rows.map((r) => r.action);
}

describe('access', () => {
  const endpoints: [string, string, unknown?][] = [
    ['GET', '/api/users'],
    ['POST', '/api/users', { email: 'x@example.com', username: 'x' }],
    ['PATCH', '/api/users/a1b2c3', { isActive: false }],
    ['DELETE', '/api/users/a1b2c3'],
    ['POST', '/api/users/a1b2c3/reset-password'],
  ];

  it('every admin endpoint answers 401 to nobody and 403 to a user, and changes nothing', async () => {
    const user = await signIn(ctx);
    const before = await ctx.modules.users.service.list({}, { page: 1, limit: 100 });
    for (const [method, url, body] of endpoints) {
      const anonymous = await call(method as 'GET', url, {}, body);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const plain = await call(
        method as 'GET',
        url.replace('a1b2c3', user.user.id),
        user.auth,
        body,
      );
      expect(plain.statusCode, `${method} ${url}`).toBe(403);
      expect(plain.json().error).toBe('forbidden');
    }
    const after = await ctx.modules.users.service.list({}, { page: 1, limit: 100 });
    expect(after.total).toBe(before.total);
    expect((await me(user.auth)).statusCode).toBe(200);
  });
});

describe('POST /api/users', () => {
  it('creates a user with a temporary password they must change before anything else', async () => {
    const created = await createViaApi({ email: 'Nora@Example.com', username: 'nora' });
    expect(created.user).toMatchObject({
      email: 'Nora@Example.com',
      username: 'nora',
      role: 'user',
      mustChangePassword: true,
    });
    expect(created.tempPassword.length).toBeGreaterThanOrEqual(12);
    expect(created).toMatchObject({ inviteCode: null, inviteUrl: null, emailSent: false });

    const token = await login(ctx, 'nora@example.com', created.tempPassword, nextIp());
    const session = bearer(token);
    const who = await me(session);
    expect(who.statusCode).toBe(200);
    expect(who.json().mustChangePassword).toBe(true);
    for (const url of ['/api/uploads', '/api/preferences', '/api/stats', '/api/tags']) {
      const refused = await call('GET', url, session);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toEqual({
        error: 'password_change_required',
        message: 'Choose a new password before continuing',
      });
    }
    // Not the desktop token either.
    const byToken = await call('GET', '/api/uploads', {
      'x-api-token': await apiTokenOf(created.user.id),
    });
    expect(byToken.statusCode).toBe(403);

    const changed = await call('POST', `/api/users/${created.user.id}/change-password`, session, {
      currentPassword: created.tempPassword,
      newPassword: 'my own password',
    });
    expect(changed.statusCode, changed.body).toBe(204);
    expect((await me(session)).json().mustChangePassword).toBe(false);
    expect((await call('GET', '/api/uploads', session)).statusCode).toBe(200);
    expect(await auditActions(created.user.id)).toEqual(['user.created']);
  });

  it('with sendInvite makes a single-use invitation stored only as a digest', async () => {
    const created = await createViaApi({
      email: 'invited@example.com',
      username: 'invited',
      role: 'admin',
      sendInvite: true,
    });
    expect(created.user.role).toBe('admin');
    expect(created.inviteCode).toMatch(/^[A-Za-z0-9_-]{24,}$/);
    expect(created.inviteUrl).toBe(`https://up.example.com/register?invite=${created.inviteCode}`);
    expect(created.emailSent).toBe(false);
    const invites = await ctx.handle.db
      .selectFrom('invites')
      .selectAll()
      .where('user_id', '=', created.user.id)
      .execute();
    expect(invites).toHaveLength(1);
    expect(JSON.stringify(invites)).not.toContain(created.inviteCode);
    const days = (Date.parse(invites[0]!.expires_at) - Date.parse(invites[0]!.created_at)) / 864e5;
    expect(days).toBe(7);
  });

  it('refuses a taken email or username with a 409 naming which, in any case or width', async () => {
    await createViaApi({ email: 'taken@example.com', username: 'taken' });
    const email = await call('POST', '/api/users', admin.auth, {
      email: 'TAKEN@example.com',
      username: 'other',
    });
    expect(email.statusCode).toBe(409);
    expect(email.json().message).toBe('A user with this email already exists');
    const username = await call('POST', '/api/users', admin.auth, {
      email: 'fresh@example.com',
      username: 'Ｔａｋｅｎ',
    });
    expect(username.statusCode).toBe(409);
    expect(username.json().message).toBe('A user with this username already exists');
  });

  it('refuses fields outside the schema (mass assignment) and missing or bad ones', async () => {
    const before = (await ctx.modules.users.service.list({}, { page: 1, limit: 1 })).total;
    const bodies = [
      { email: 'm1@example.com', username: 'm1', diskUsed: 0 },
      { email: 'm2@example.com', username: 'm2', id: 'chosen-id' },
      { email: 'm3@example.com', username: 'm3', isActive: false },
      { email: 'm4@example.com', username: 'm4', mustChangePassword: false },
      { email: 'm5@example.com', username: 'm5', role: 'owner' },
      { email: 'not-an-email', username: 'm6' },
      { email: 'm7@example.com' },
      { username: 'm8' },
      { email: 'm9@example.com', username: '   ' },
      { email: 'm10@example.com', username: 'x'.repeat(51) },
    ];
    for (const body of bodies) {
      const res = await call('POST', '/api/users', admin.auth, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('validation_error');
    }
    expect((await ctx.modules.users.service.list({}, { page: 1, limit: 1 })).total).toBe(before);
  });
});

describe('GET /api/users', () => {
  it('searches username and email regardless of case, filters role and status, pages', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const made = [];
    for (let i = 0; i < 12; i += 1) {
      made.push(
        await createViaApi({
          email:
            i % 2 === 0 ? `${tag}-${i}@example.com` : `plain-${tag.toUpperCase()}x${i}@example.com`,
          username: i % 3 === 0 ? `${tag.toUpperCase()}_name${i}` : `someone_${tag}_${i}`,
          role: i < 2 ? 'admin' : 'user',
        }),
      );
    }
    await call('PATCH', `/api/users/${made[5]!.user.id}`, admin.auth, { isActive: false });

    const all = await call('GET', `/api/users?search=${tag.toUpperCase()}&limit=10`, admin.auth);
    expect(all.statusCode).toBe(200);
    const page1 = all.json();
    expect(page1.total).toBe(12);
    expect(page1.users).toHaveLength(10);
    const page2 = (
      await call('GET', `/api/users?search=${tag}&limit=10&page=2`, admin.auth)
    ).json();
    expect(page2.users).toHaveLength(2);
    const ids = [...page1.users, ...page2.users].map((u: { id: string }) => u.id);
    expect(new Set(ids).size).toBe(12);
    expect(page1.users[0]).toEqual({
      id: expect.any(String),
      username: expect.any(String),
      email: expect.any(String),
      role: expect.stringMatching(/^(user|admin)$/),
      isActive: expect.any(Boolean),
      diskUsed: 0,
      diskQuota: expect.any(Number),
      uploadCount: 0,
      createdAt: expect.any(String),
      lastSeenAt: null,
      mustChangePassword: true,
    });

    const admins = (await call('GET', `/api/users?search=${tag}&role=admin`, admin.auth)).json();
    expect(admins.users.map((u: { id: string }) => u.id).sort()).toEqual(
      [made[0]!.user.id, made[1]!.user.id].sort(),
    );
    const inactive = (
      await call('GET', `/api/users?search=${tag}&status=inactive`, admin.auth)
    ).json();
    expect(inactive.users.map((u: { id: string }) => u.id)).toEqual([made[5]!.user.id]);
    const active = (await call('GET', `/api/users?search=${tag}&status=active`, admin.auth)).json();
    expect(active.total).toBe(11);
    // LIKE's own characters are plain text.
    expect((await call('GET', '/api/users?search=%25', admin.auth)).json().total).toBe(0);
    expect((await call('GET', '/api/users?status=gone', admin.auth)).statusCode).toBe(400);
  });

  it('shows when a user was last seen and how much they store', async () => {
    const { row, password } = await createUser(ctx);
    const token = await login(ctx, row.email, password, nextIp());
    await uploadFile(ctx, bearer(token), { filename: 'a.txt', data: Buffer.from('hello') });
    const list = (await call('GET', `/api/users?search=${row.username}`, admin.auth)).json();
    // What the upload is charged: one 4 KiB block for 5 bytes.
    expect(list.users[0]).toMatchObject({ id: row.id, uploadCount: 1, diskUsed: 4096 });
    expect(Date.parse(list.users[0].lastSeenAt)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('PATCH /api/users/:id', () => {
  it('deactivating stops the sessions and the API token at once; reactivating lets them sign in', async () => {
    const { row, password } = await createUser(ctx);
    const session = bearer(await login(ctx, row.email, password, nextIp()));
    const token = { 'x-api-token': await apiTokenOf(row.id) };
    expect((await me(token)).statusCode).toBe(200);

    const res = await call('PATCH', `/api/users/${row.id}`, admin.auth, { isActive: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: row.id, isActive: false });
    expect((await me(session)).statusCode).toBe(401);
    expect((await me(token)).statusCode).toBe(401);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: row.email, password },
      remoteAddress: nextIp(),
    });
    expect(refused.statusCode).toBe(401);

    await call('PATCH', `/api/users/${row.id}`, admin.auth, { isActive: true });
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(bearer(await login(ctx, row.email, password, nextIp())))).statusCode).toBe(
      200,
    );
    expect(await auditActions(row.id)).toEqual(['user.updated', 'user.updated']);
  });

  it('changes role, quota and username; a taken username is a 409; unknown fields a 400', async () => {
    const { row } = await createUser(ctx);
    const other = await createUser(ctx);
    const res = await call('PATCH', `/api/users/${row.id}`, admin.auth, {
      role: 'admin',
      diskQuota: 1234,
      username: 'renamed-by-admin',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      role: 'admin',
      diskQuota: 1234,
      username: 'renamed-by-admin',
    });
    const taken = await call('PATCH', `/api/users/${row.id}`, admin.auth, {
      username: other.row.username.toUpperCase(),
    });
    expect(taken.statusCode).toBe(409);
    for (const body of [
      { diskUsed: 0 },
      { id: 'x' },
      { email: 'e@example.com' },
      { diskQuota: -1 },
      { role: 'root' },
    ]) {
      expect((await call('PATCH', `/api/users/${row.id}`, admin.auth, body)).statusCode).toBe(400);
    }
    expect(
      (await call('PATCH', '/api/users/no-such-user', admin.auth, { isActive: true })).statusCode,
    ).toBe(404);
    const after = await ctx.modules.users.service.get(row.id);
    expect(after).toMatchObject({ username: 'renamed-by-admin', role: 'admin', disk_quota: 1234 });
  });
});

describe('the last active administrator', () => {
  it('cannot be deactivated, demoted or deleted; two admins demoting each other at once leave one', async () => {
    const solo = await createTestContext();
    try {
      const only = await signIn(solo, 'admin');
      const patch = (auth: Headers, id: string, body: unknown) =>
        solo.app.inject({
          method: 'PATCH',
          url: `/api/users/${id}`,
          headers: { ...auth, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      for (const body of [{ isActive: false }, { role: 'user' }]) {
        const res = await patch(only.auth, only.user.id, body);
        expect(res.statusCode).toBe(409);
        expect(res.json().message).toBe('Upshot needs at least one active administrator');
      }
      const self = await solo.app.inject({
        method: 'DELETE',
        url: `/api/users/${only.user.id}`,
        headers: only.auth,
      });
      expect(self.statusCode).toBe(409);
      expect(self.json().message).toBe('You cannot delete your own account');

      const second = await signIn(solo, 'admin');
      const results = await Promise.all([
        patch(only.auth, second.user.id, { role: 'user' }),
        patch(second.auth, only.user.id, { role: 'user' }),
      ]);
      const statuses = results.map((r) => r.statusCode).sort();
      // The second to run is either refused by the guard (409) or no longer an admin (403).
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      const admins = await solo.modules.users.service.list(
        { role: 'admin', active: true },
        { page: 1, limit: 10 },
      );
      expect(admins.total).toBe(1);
    } finally {
      await solo.close();
    }
  });
});

describe('POST /api/users/:id/reset-password', () => {
  it('sets a temporary password, signs the user out everywhere, and makes them change it', async () => {
    const { row, password } = await createUser(ctx);
    const sessions = [
      bearer(await login(ctx, row.email, password, nextIp())),
      bearer(await login(ctx, row.email, password, nextIp())),
    ];
    const res = await call('POST', `/api/users/${row.id}/reset-password`, admin.auth);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { tempPassword } = res.json<{ tempPassword: string }>();
    for (const s of sessions) expect((await me(s)).statusCode).toBe(401);
    const old = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: row.email, password },
      remoteAddress: nextIp(),
    });
    expect(old.statusCode).toBe(401);
    const fresh = bearer(await login(ctx, row.email, tempPassword, nextIp()));
    expect((await me(fresh)).json().mustChangePassword).toBe(true);
    expect((await call('GET', '/api/uploads', fresh)).statusCode).toBe(403);
    expect(
      (await call('POST', '/api/users/no-such-user/reset-password', admin.auth)).statusCode,
    ).toBe(404);
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .select('details')
      .where('target_id', '=', row.id)
      .execute();
    expect(JSON.stringify(audit)).not.toContain(tempPassword);
  });
});

describe('DELETE /api/users/:id', () => {
  it("removes the user's uploads and their bytes, tags, sessions and chunked sessions", async () => {
    const { row, password } = await createUser(ctx);
    const session = bearer(await login(ctx, row.email, password, nextIp()));
    const token = { 'x-api-token': await apiTokenOf(row.id) };
    const keys: string[] = [];
    for (const name of ['a.txt', 'b.txt']) {
      const res = await uploadFile(ctx, session, {
        filename: name,
        data: Buffer.from(`bytes of ${name}`),
      });
      expect(res.statusCode).toBe(201);
      const stored = await ctx.handle.db
        .selectFrom('uploads')
        .select('storage_key')
        .where('id', '=', res.json().upload.id)
        .executeTakeFirstOrThrow();
      keys.push(stored.storage_key);
    }
    const tag = await call('POST', '/api/tags', session, { name: 'mine' });
    expect(tag.statusCode).toBe(201);
    const init = await call('POST', '/api/chunked-upload/init', session, {
      filename: 'big.bin',
      mimeType: 'application/octet-stream',
      totalSize: 10,
      totalChunks: 1,
    });
    expect(init.statusCode).toBe(201);
    const adminUsedBefore = Number((await ctx.modules.users.service.get(admin.user.id)).disk_used);
    const filesBefore = filesUnder(ctx.dataDir);
    for (const key of keys) expect(filesBefore.some((f) => f.endsWith(key))).toBe(true);

    const res = await call('DELETE', `/api/users/${row.id}`, admin.auth);
    expect(res.statusCode, res.body).toBe(204);

    expect((await me(session)).statusCode).toBe(401);
    expect((await me(token)).statusCode).toBe(401);
    const filesAfter = filesUnder(ctx.dataDir);
    for (const key of keys) expect(filesAfter.some((f) => f.endsWith(key))).toBe(false);
    const db = ctx.handle.db;
    for (const table of ['uploads', 'tags', 'sessions', 'chunked_uploads'] as const) {
      const left = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', row.id)
        .executeTakeFirstOrThrow();
      expect(Number(left.n), table).toBe(0);
    }
    // Nobody else's bookkeeping moved.
    expect(Number((await ctx.modules.users.service.get(admin.user.id)).disk_used)).toBe(
      adminUsedBefore,
    );
    expect((await call('DELETE', `/api/users/${row.id}`, admin.auth)).statusCode).toBe(404);
    expect(await auditActions(row.id)).toEqual(['user.deleted']);
  });
});
