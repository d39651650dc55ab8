/**
 * Deciding access requests (approving makes an account with an invitation, rejecting does
 * not), deleting them, who may, and the audit log of it all. No SMTP here: nothing is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  aRequest,
  countRows,
  requestRows,
  submitPending,
  submitRequest,
  visitorIp,
} from '../../../test/access-requests.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { createUser, signIn } from '../../../test/users.ts';

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
  admin = await signIn(ctx, 'admin');
});
afterAll(() => ctx.close());

type Headers = Record<string, string>;
const rowsFor = (email: string) => requestRows(ctx, email);
const countOf = (table: Parameters<typeof countRows>[1]) => countRows(ctx, table);
const pending = (overrides: Record<string, unknown> = {}) => submitPending(ctx, overrides);
const call = (method: 'GET' | 'PATCH' | 'DELETE', url: string, auth: Headers, body?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const decide = (id: string, status: string, auth: Headers = admin.auth) =>
  call('PATCH', `/api/access-requests/${id}`, auth, { status });

describe('PATCH /api/access-requests/:id', () => {
  it('approving makes the account from the name, with an invitation; the same name gets a suffix', async () => {
    const first = await pending({ name: 'Zoë Müller', email: 'zoe@example.com' });
    const res = await decide(first.id, 'approved');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({
      request: {
        id: first.id,
        name: 'Zoë Müller',
        email: 'zoe@example.com',
        reason: first.reason,
        status: 'approved',
        createdAt: first.created_at,
        decidedAt: expect.any(String),
      },
      user: expect.objectContaining({
        id: expect.any(String),
        username: 'zoe.muller',
        email: 'zoe@example.com',
        role: 'user',
        isActive: true,
        mustChangePassword: true,
      }),
      inviteUrl: expect.stringMatching(
        /^https:\/\/up\.example\.com\/register\?invite=[A-Za-z0-9_-]{24,}$/,
      ),
      emailSent: false,
    });
    const code = new URL(body.inviteUrl).searchParams.get('invite')!;
    const invite = await ctx.app.inject({
      method: 'GET',
      url: `/api/auth/invites/${code}`,
      remoteAddress: visitorIp(),
    });
    expect(invite.statusCode).toBe(200);
    expect(invite.json()).toMatchObject({ email: 'zoe@example.com', username: 'zoe.muller' });
    const stored = await ctx.handle.db
      .selectFrom('access_requests')
      .select(['decided_by', 'status'])
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ decided_by: admin.user.id, status: 'approved' });

    const second = await pending({ name: 'Zoe  Muller', email: 'zoe.other@example.com' });
    const again = await decide(second.id, 'approved');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().user.username).toBe('zoe.muller2');
  });

  it('derives a username from the email when the name has no letters it can use', async () => {
    const req = await pending({ name: '李小龙', email: 'Bruce.Lee@example.com' });
    const res = await decide(req.id, 'approved');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.username).toBe('bruce.lee');
  });

  it('rejecting changes the status only; no account is made', async () => {
    const req = await pending();
    const users = await countOf('users');
    const res = await decide(req.id, 'rejected');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      request: expect.objectContaining({ id: req.id, status: 'rejected' }),
      user: null,
      inviteUrl: null,
      emailSent: false,
    });
    expect(await countOf('users')).toBe(users);
    expect(await ctx.modules.users.service.findByEmail(req.email)).toBeUndefined();
  });

  it('refuses to decide a request twice (409) and changes nothing', async () => {
    const approved = await pending();
    const rejected = await pending();
    expect((await decide(approved.id, 'approved')).statusCode).toBe(200);
    expect((await decide(rejected.id, 'rejected')).statusCode).toBe(200);
    const snapshot = async () => ({
      requests: await ctx.handle.db
        .selectFrom('access_requests')
        .selectAll()
        .where('id', 'in', [approved.id, rejected.id])
        .orderBy('id')
        .execute(),
      users: await countOf('users'),
      invites: await countOf('invites'),
      audit: await countOf('audit_log'),
    });
    const before = await snapshot();
    for (const [id, status, was] of [
      [approved.id, 'approved', 'approved'],
      [approved.id, 'rejected', 'approved'],
      [rejected.id, 'approved', 'rejected'],
      [rejected.id, 'rejected', 'rejected'],
    ] as const) {
      const res = await decide(id, status);
      expect(res.statusCode, `${was} -> ${status}`).toBe(409);
      expect(res.json()).toEqual({
        error: 'conflict',
        message: `This request was ${was} already`,
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('of two approvals at once, one makes the account and the other is a 409', async () => {
    const req = await pending();
    const users = await countOf('users');
    const results = await Promise.all([decide(req.id, 'approved'), decide(req.id, 'approved')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await countOf('users')).toBe(users + 1);
  });

  it('of decisions at once, every one that lost names what the request became', async () => {
    // The 409 used to name the status read before the decision was tried: "was pending already".
    const req = await pending();
    const results = await Promise.all(
      ['approved', 'rejected', 'approved', 'rejected', 'approved', 'rejected'].map((status) =>
        decide(req.id, status),
      ),
    );
    const won = results.filter((r) => r.statusCode === 200);
    expect(won).toHaveLength(1);
    const became = won[0]!.json().request.status as string;
    for (const lost of results.filter((r) => r.statusCode !== 200)) {
      expect(lost.statusCode).toBe(409);
      expect(lost.json().message).toBe(`This request was ${became} already`);
    }
  });

  it('an approval for an email that got an account meanwhile is a 409 and stays pending', async () => {
    const req = await pending();
    await createUser(ctx, { email: req.email });
    const res = await decide(req.id, 'approved');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A user with this email already exists');
    const [row] = await rowsFor(req.email);
    expect(row).toMatchObject({ status: 'pending', decided_at: null, decided_by: null });
    expect((await decide(req.id, 'rejected')).statusCode).toBe(200);
  });

  it('answers 404 for an unknown request and 400 for anything but approved or rejected', async () => {
    const unknown = await decide('no-such-request', 'approved');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'not_found', message: 'Access request not found' });
    const req = await pending();
    for (const body of [
      { status: 'pending' },
      { status: 'APPROVED' },
      {},
      { status: 'approved', role: 'admin' },
      { status: 'approved', username: 'chosen' },
    ]) {
      const res = await call('PATCH', `/api/access-requests/${req.id}`, admin.auth, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await rowsFor(req.email))[0]!.status).toBe('pending');
    expect(await ctx.modules.users.service.findByEmail(req.email)).toBeUndefined();
  });
});

describe('DELETE /api/access-requests/:id', () => {
  it('deletes any request (204), then it is a 404', async () => {
    const open = await pending();
    const decided = await pending();
    expect((await decide(decided.id, 'rejected')).statusCode).toBe(200);
    for (const req of [open, decided]) {
      const res = await call('DELETE', `/api/access-requests/${req.id}`, admin.auth);
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
      expect(await rowsFor(req.email)).toHaveLength(0);
      const again = await call('DELETE', `/api/access-requests/${req.id}`, admin.auth);
      expect(again.statusCode).toBe(404);
      expect((await decide(req.id, 'approved')).statusCode).toBe(404);
    }
    // The email may ask again.
    expect((await submitRequest(ctx, aRequest({ email: open.email }))).statusCode).toBe(201);
  });
});

describe('access', () => {
  it('answers 401 to nobody and 403 to a user for every administrator endpoint, changing nothing', async () => {
    const user = await signIn(ctx);
    const req = await pending();
    const endpoints: [string, string, unknown?][] = [
      ['GET', '/api/access-requests'],
      ['PATCH', `/api/access-requests/${req.id}`, { status: 'approved' }],
      ['PATCH', `/api/access-requests/${req.id}`, { status: 'rejected' }],
      ['DELETE', `/api/access-requests/${req.id}`],
      ['GET', '/api/audit-log'],
    ];
    const users = await countOf('users');
    const audit = await countOf('audit_log');
    for (const [method, url, body] of endpoints) {
      const anonymous = await call(method as 'GET', url, {}, body);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const plain = await call(method as 'GET', url, user.auth, body);
      expect(plain.statusCode, `${method} ${url}`).toBe(403);
      expect(plain.json().error).toBe('forbidden');
    }
    expect(await rowsFor(req.email)).toEqual([expect.objectContaining({ status: 'pending' })]);
    expect(await countOf('users')).toBe(users);
    expect(await countOf('audit_log')).toBe(audit);
  });
});

type Entry = {
  id: string;
  actorId: string | null;
  actorUsername: string;
  action: string;
  targetType: string;
  targetId: string | null;
  targetLabel: string;
  details: Record<string, unknown>;
  createdAt: string;
};
const auditLog = async (query: string) => {
  const res = await call('GET', `/api/audit-log${query}`, admin.auth);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ entries: Entry[]; total: number; page: number; limit: number }>();
};

describe('GET /api/audit-log', () => {
  it('records who approved, rejected and deleted which request, newest first', async () => {
    const other = await signIn(ctx, 'admin');
    const approved = await pending({ name: 'Grace Hopper' });
    const rejected = await pending();
    const deleted = await pending();
    ctx.clock.advance(1000);
    const approval = (await decide(approved.id, 'approved', other.auth)).json();
    ctx.clock.advance(1000);
    expect((await decide(rejected.id, 'rejected', other.auth)).statusCode).toBe(200);
    ctx.clock.advance(1000);
    const del = await call('DELETE', `/api/access-requests/${deleted.id}`, other.auth);
    expect(del.statusCode).toBe(204);

    const mine = await auditLog(`?actor=${other.user.id}`);
    expect(mine.total).toBe(3);
    expect(mine.entries).toEqual([
      {
        id: expect.any(String),
        actorId: other.user.id,
        actorUsername: other.user.username,
        action: 'access_request.deleted',
        targetType: 'access_request',
        targetId: deleted.id,
        targetLabel: `${deleted.name} <${deleted.email}>`,
        details: { status: 'pending' },
        createdAt: expect.any(String),
      },
      expect.objectContaining({
        action: 'access_request.rejected',
        targetId: rejected.id,
        details: { emailSent: false },
      }),
      expect.objectContaining({
        action: 'access_request.approved',
        targetId: approved.id,
        targetLabel: `Grace Hopper <${approved.email}>`,
        details: { userId: approval.user.id, username: 'grace.hopper', emailSent: false },
      }),
    ]);
    const times = mine.entries.map((e) => e.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    // The invitation never reaches the log.
    const code = new URL(approval.inviteUrl as string).searchParams.get('invite')!;
    expect(JSON.stringify(await auditLog('?limit=100'))).not.toContain(code);

    const page1 = await auditLog(`?actor=${other.user.id}&limit=2`);
    const page2 = await auditLog(`?actor=${other.user.id}&limit=2&page=2`);
    expect(page1).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(page2).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect([...page1.entries, ...page2.entries].map((e) => e.id)).toEqual(
      mine.entries.map((e) => e.id),
    );

    const rejections = await auditLog(`?action=access_request.rejected&limit=100`);
    expect(rejections.entries.length).toBeGreaterThan(0);
    expect(rejections.entries.every((e) => e.action === 'access_request.rejected')).toBe(true);
    expect(rejections.entries.map((e) => e.targetId)).toContain(rejected.id);
    const both = await auditLog(`?actor=${other.user.id}&action=access_request.approved`);
    expect(both.entries.map((e) => e.targetId)).toEqual([approved.id]);
    expect((await auditLog(`?actor=${other.user.id}&action=user.deleted`)).total).toBe(0);
    expect((await auditLog('?actor=nobody')).entries).toEqual([]);
    expect((await call('GET', '/api/audit-log?limit=101', admin.auth)).statusCode).toBe(400);
  });

  it('does not record what a visitor does', async () => {
    const before = await countOf('audit_log');
    await pending();
    expect(await countOf('audit_log')).toBe(before);
  });
});
