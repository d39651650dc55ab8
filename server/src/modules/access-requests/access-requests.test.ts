/**
 * Access requests from the visitor's side (validated, limited per address, one pending request
 * per email, no account enumeration) and the administrators' list of them. No SMTP here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  aRequest,
  countRows,
  requestRows,
  submitPending,
  submitRequest,
} from '../../../test/access-requests.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { createUser, signIn } from '../../../test/users.ts';
import { ACCESS_REQUEST_LIMIT } from './index.ts';

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
  admin = await signIn(ctx, 'admin');
});
afterAll(() => ctx.close());

type Headers = Record<string, string>;
const SUBMITTED =
  'Your request has been submitted. You will receive an email once it has been approved.';

const submit = (body: unknown, remoteAddress?: string, headers?: Headers) =>
  submitRequest(ctx, body, remoteAddress, headers);
const rowsFor = (email: string) => requestRows(ctx, email);
const countOf = (table: Parameters<typeof countRows>[1]) => countRows(ctx, table);
const pending = (overrides: Record<string, unknown> = {}) => submitPending(ctx, overrides);
const call = (method: 'GET' | 'PATCH', url: string, auth: Headers, body?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const decide = (id: string, status: string) =>
  call('PATCH', `/api/access-requests/${id}`, admin.auth, { status });

type Listed = {
  id: string;
  name: string;
  email: string;
  reason: string;
  status: string;
  createdAt: string;
  decidedAt: string | null;
};
const list = async (query = '') => {
  const res = await call('GET', `/api/access-requests${query}`, admin.auth);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ requests: Listed[]; total: number; page: number; limit: number }>();
};

describe('POST /api/access-requests (no sign-in)', () => {
  it('records a pending request and answers 201 with a message', async () => {
    const body = aRequest({
      email: '  Ada.Lovelace@Example.com ',
      name: ' Ada Lovelace ',
      reason: 'Line one\nline two\r\n\nline four',
    });
    const res = await submit(body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ message: SUBMITTED });
    const rows = await rowsFor('ada.lovelace@example.com');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      email: 'Ada.Lovelace@Example.com',
      name: 'Ada Lovelace',
      reason: 'Line one\nline two\r\n\nline four',
      status: 'pending',
      decided_at: null,
      decided_by: null,
    });
  });

  it('refuses a missing, malformed or oversized field, and any field not in the schema', async () => {
    const before = await countOf('access_requests');
    const ok = aRequest();
    const bodies: unknown[] = [
      { name: ok.name, reason: ok.reason },
      { email: ok.email, reason: ok.reason },
      { email: ok.email, name: ok.name },
      { ...ok, email: 'not-an-email' },
      { ...ok, email: 'two words@example.com' },
      { ...ok, email: '@example.com' },
      { ...ok, email: 'someone@' },
      { ...ok, email: '' },
      { ...ok, name: '' },
      { ...ok, name: '   ' },
      { ...ok, name: 'n'.repeat(101) },
      { ...ok, name: 'Ada\u0000' },
      { ...ok, name: 'Ada\nLovelace' },
      { ...ok, reason: '' },
      { ...ok, reason: ' \n ' },
      { ...ok, reason: 'r'.repeat(2001) },
      { ...ok, reason: 'a\u0007b' },
      { ...ok, reason: 'tab\tinside' },
      { ...ok, email: 42 },
      { ...ok, status: 'approved' },
      { ...ok, role: 'admin' },
      { ...ok, id: 'chosen-id' },
      [ok],
      '{"email":',
    ];
    for (const body of bodies) {
      const res = await submit(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('validation_error');
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect(await countOf('access_requests')).toBe(before);

    // The limits themselves are accepted.
    const longest = aRequest({ name: 'n'.repeat(100), reason: 'r'.repeat(2000) });
    expect((await submit(longest)).statusCode).toBe(201);
    expect(await rowsFor(longest.email)).toHaveLength(1);
  });

  it('answers 409 to a second pending request for the same email, in any case', async () => {
    const first = await pending();
    const again = await submit(aRequest({ email: first.email.toUpperCase(), name: 'Again' }));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'conflict',
      message: 'A request for this email is already pending',
    });
    expect(await rowsFor(first.email)).toHaveLength(1);
  });

  it('accepts a new request once the pending one is rejected', async () => {
    const first = await pending();
    expect((await decide(first.id, 'rejected')).statusCode).toBe(200);
    const again = await submit(aRequest({ email: first.email, reason: 'Please reconsider' }));
    expect(again.statusCode, again.body).toBe(201);
    const rows = await rowsFor(first.email);
    expect(rows.map((r) => r.status).sort()).toEqual(['pending', 'rejected']);
  });

  it('gives an email that has an account the same answer, and records nothing', async () => {
    const { row } = await createUser(ctx, { email: 'Member.Already@Example.com' });
    const strangerBody = aRequest();
    const stranger = await submit(strangerBody);
    const member = await submit(aRequest({ email: 'member.already@EXAMPLE.com' }));
    expect(member.statusCode).toBe(stranger.statusCode);
    expect(member.body).toBe(stranger.body);
    expect(member.headers['content-type']).toBe(stranger.headers['content-type']);
    expect(await rowsFor(row.email)).toHaveLength(0);
    // Asking again answers like a second request for any email (a 409), so the answers never
    // tell whether an account exists; still nothing for an administrator to act on.
    const strangerAgain = await submit(aRequest({ email: strangerBody.email }));
    const memberAgain = await submit(aRequest({ email: row.email }));
    expect(memberAgain.statusCode).toBe(409);
    expect(memberAgain.body).toBe(strangerAgain.body);
    expect(await rowsFor(row.email)).toHaveLength(0);
  });

  it('after an approval, asking again is answered like any request and adds nothing', async () => {
    const first = await pending();
    expect((await decide(first.id, 'approved')).statusCode).toBe(200);
    const again = await submit(aRequest({ email: first.email }));
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ message: SUBMITTED });
    expect((await rowsFor(first.email)).map((r) => r.status)).toEqual(['approved']);
  });

  it('makes exactly one row of identical requests sent at once', async () => {
    const body = aRequest();
    const results = await Promise.all(Array.from({ length: 6 }, () => submit(body)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await rowsFor(body.email)).toHaveLength(1);
  });

  it('limits an address to 5 requests an hour with a clear 429; other addresses go on', async () => {
    // Windows are fixed: start at the beginning of one so the six do not straddle two.
    const now = ctx.clock.now().getTime();
    ctx.clock.advance(ACCESS_REQUEST_LIMIT.windowMs - (now % ACCESS_REQUEST_LIMIT.windowMs));
    const address = '203.0.113.7';
    for (let i = 0; i < ACCESS_REQUEST_LIMIT.max; i += 1) {
      expect((await submit(aRequest(), address)).statusCode).toBe(201);
    }
    const sixth = aRequest();
    // A forwarded-for header is not believed (TRUST_PROXY is off).
    const limited = await submit(sixth, address, { 'x-forwarded-for': '198.51.100.1' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');
    expect(limited.json().message).toMatch(
      /^Too many access requests\. Try again in \d+ minutes\.$/,
    );
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(50 * 60);
    expect(retryAfter).toBeLessThanOrEqual(60 * 60);
    expect(await rowsFor(sixth.email)).toHaveLength(0);
    // An existing account's email is limited the same way (the limit tells nothing either).
    const { row } = await createUser(ctx);
    expect((await submit(aRequest({ email: row.email }), address)).statusCode).toBe(429);

    const elsewhere = await submit(sixth, '203.0.113.8');
    expect(elsewhere.statusCode).toBe(201);
    expect(await rowsFor(sixth.email)).toHaveLength(1);

    ctx.clock.advance(ACCESS_REQUEST_LIMIT.windowMs);
    expect((await submit(aRequest(), address)).statusCode).toBe(201);
  });
});

describe('GET /api/access-requests', () => {
  it('lists requests newest first with their fields, filters by status, and pages', async () => {
    const made: Awaited<ReturnType<typeof pending>>[] = [];
    for (let i = 0; i < 4; i += 1) {
      ctx.clock.advance(1000);
      made.push(await pending());
    }
    ctx.clock.advance(1000);
    const decidedAt = ctx.clock.now().getTime();
    expect((await decide(made[1]!.id, 'approved')).statusCode).toBe(200);
    expect((await decide(made[2]!.id, 'rejected')).statusCode).toBe(200);
    const ids = (requests: Listed[]) =>
      requests.filter((r) => made.some((m) => m.id === r.id)).map((r) => r.id);

    const all = await list('?limit=100');
    expect(all).toMatchObject({ total: await countOf('access_requests'), page: 1, limit: 100 });
    const times = all.requests.map((r) => r.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(ids(all.requests)).toEqual(made.map((m) => m.id).reverse());
    const approved = all.requests.find((r) => r.id === made[1]!.id)!;
    expect(approved).toEqual({
      id: made[1]!.id,
      name: made[1]!.name,
      email: made[1]!.email,
      reason: made[1]!.reason,
      status: 'approved',
      createdAt: made[1]!.created_at,
      decidedAt: expect.any(String),
    });
    expect(Date.parse(approved.decidedAt!)).toBeGreaterThanOrEqual(decidedAt);
    expect(all.requests.find((r) => r.id === made[0]!.id)!.decidedAt).toBeNull();

    for (const status of ['pending', 'approved', 'rejected'] as const) {
      const filtered = await list(`?status=${status}&limit=100`);
      expect(filtered.requests.every((r) => r.status === status)).toBe(true);
      expect(filtered.total).toBe(filtered.requests.length);
      const expected = made
        .filter((m, i) => (i === 1 ? 'approved' : i === 2 ? 'rejected' : 'pending') === status)
        .map((m) => m.id)
        .reverse();
      expect(ids(filtered.requests)).toEqual(expected);
    }
    expect((await list('?status=')).total).toBe(all.total);

    const page2 = await list('?limit=2&page=2');
    expect(page2).toMatchObject({ total: all.total, page: 2, limit: 2 });
    expect(page2.requests.map((r) => r.id)).toEqual(all.requests.slice(2, 4).map((r) => r.id));

    for (const query of ['?status=done', '?limit=0', '?limit=101', '?page=0', '?page=x']) {
      const res = await call('GET', `/api/access-requests${query}`, admin.auth);
      expect(res.statusCode, query).toBe(400);
    }
  });
});
