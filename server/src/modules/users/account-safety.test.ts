/**
 * Administration where it meets other requests: registering while an administrator resets or
 * deletes the same user, deleting a user whose upload is streaming, a session that must change
 * its password opening file links, addresses the mailer would read differently, empty changes,
 * a proxy's X-Forwarded-For, and the audit of an administrator reading another user's token.
 */
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { aRequest, submitRequest, visitorIp } from '../../../test/access-requests.ts';
import { createTestContext, filesUnder, type TestContext } from '../../../test/context.ts';
import { multipart, uploadFile } from '../../../test/uploads.ts';
import { createUser, login, signIn } from '../../../test/users.ts';

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
  admin = await signIn(ctx, 'admin');
});
afterAll(() => ctx.close());

type Headers = Record<string, string>;
const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  auth: Headers,
  body?: unknown,
  remoteAddress?: string,
) =>
  ctx.app.inject({
    method,
    url,
    remoteAddress,
    headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
let n = 0;
const nextIp = () => `10.77.${Math.floor(++n / 200) % 250}.${n % 200}`;

async function invited() {
  n += 1;
  const res = await call('POST', '/api/users', admin.auth, {
    email: `race${n}@example.com`,
    username: `race${n}`,
    sendInvite: true,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ user: { id: string }; inviteCode: string }>();
}

describe('registering while an administrator changes the same user', () => {
  it('against a password reset: each pair ends cleanly (never a 5xx), one way or the other', async () => {
    for (let i = 0; i < 15; i += 1) {
      const { user, inviteCode } = await invited();
      const [registered, reset] = await Promise.all([
        call('POST', '/api/auth/register', {}, { inviteCode, password: 'long enough' }, nextIp()),
        call('POST', `/api/users/${user.id}/reset-password`, admin.auth),
      ]);
      expect(reset.statusCode, reset.body).toBe(200);
      expect([200, 400], registered.body).toContain(registered.statusCode);
      // A reset voids the invitation and signs out every session, whichever came first.
      if (registered.statusCode === 200) {
        const me = await call('GET', '/api/auth/me', bearer(registered.json().token));
        expect(me.statusCode).toBe(401);
      }
    }
  });

  it('against a deletion: each pair ends cleanly (never a 5xx)', async () => {
    for (let i = 0; i < 15; i += 1) {
      const { user, inviteCode } = await invited();
      const [registered, deleted] = await Promise.all([
        call('POST', '/api/auth/register', {}, { inviteCode, password: 'long enough' }, nextIp()),
        call('DELETE', `/api/users/${user.id}`, admin.auth),
      ]);
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect([200, 400], registered.body).toContain(registered.statusCode);
    }
  });
});

describe('deleting a user whose upload is streaming', () => {
  it('ends that upload with a 4xx, not a 5xx, and leaves no bytes behind', async () => {
    const { row, password } = await createUser(ctx);
    const token = await login(ctx, row.email, password, nextIp());
    const body = multipart({}, { filename: 'b.bin', data: Buffer.alloc(256 * 1024, 1) });
    const stream = new PassThrough();
    const upload = ctx.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { ...bearer(token), ...body.headers, 'content-length': String(body.payload.length) },
      payload: stream,
    });
    stream.write(body.payload.subarray(0, 64 * 1024));
    const tmp = path.join(ctx.dataDir, 'tmp');
    await vi.waitFor(() => expect(filesUnder(tmp).length).toBeGreaterThan(0));
    expect((await call('DELETE', `/api/users/${row.id}`, admin.auth)).statusCode).toBe(204);
    stream.end(body.payload.subarray(64 * 1024));
    const res = await upload;
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
    await vi.waitFor(() => expect(filesUnder(tmp)).toEqual([]));
  });
});

describe('a session that must change its password', () => {
  it('opens a private file link no more than anyone else', async () => {
    const { row, password } = await createUser(ctx);
    const token = await login(ctx, row.email, password, nextIp());
    const up = await uploadFile(
      ctx,
      bearer(token),
      { filename: 'secret.txt', contentType: 'text/plain', data: Buffer.from('secret') },
      { isPublic: 'false' },
    );
    expect(up.statusCode).toBe(201);
    const link = new URL(up.json().url).pathname;
    expect((await call('GET', link, bearer(token))).statusCode).toBe(200);
    const reset = await call('POST', `/api/users/${row.id}/reset-password`, admin.auth);
    const temporary = bearer(await login(ctx, row.email, reset.json().tempPassword, nextIp()));
    expect((await call('GET', link, temporary)).statusCode).toBe(404);
    expect((await call('GET', link, {})).statusCode).toBe(404);
  });
});

describe('input the mailer or the database would read differently', () => {
  it('refuses addresses with a display name, a list or a group', async () => {
    for (const email of ['x<evil@attacker.example>', 'a,b@example.com', 'a;b@example.com']) {
      const request = await submitRequest(ctx, aRequest({ email }), visitorIp());
      expect(request.statusCode, email).toBe(400);
      const created = await call('POST', '/api/users', admin.auth, { email, username: `u${++n}` });
      expect(created.statusCode, email).toBe(400);
    }
  });

  it('answers an empty change to a user with a 400', async () => {
    const { row } = await createUser(ctx);
    const res = await call('PATCH', `/api/users/${row.id}`, admin.auth, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'validation_error', message: 'Nothing to change' });
  });
});

describe('behind a proxy (TRUST_PROXY)', () => {
  it('counts the address the proxy appended, not one the client wrote', async () => {
    const proxied = await createTestContext({ TRUST_PROXY: 'true' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i += 1) {
        // What nginx's $proxy_add_x_forwarded_for sends: the client's header, then its address.
        const res = await submitRequest(proxied, aRequest(), '127.0.0.1', {
          'x-forwarded-for': `198.51.100.${i}, 203.0.113.7`,
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
      const other = await submitRequest(proxied, aRequest(), '127.0.0.1', {
        'x-forwarded-for': '203.0.113.8',
      });
      expect(other.statusCode).toBe(201);
    } finally {
      await proxied.close();
    }
  });
});

describe("an administrator and another user's API token", () => {
  const auditActions = async (targetId: string) =>
    (
      await ctx.handle.db
        .selectFrom('audit_log')
        .select(['action', 'actor_id'])
        .where('target_id', '=', targetId)
        .orderBy('created_at')
        .execute()
    )
      .map((r) => `${r.actor_id === admin.user.id ? 'admin' : r.actor_id}:${r.action}`)
      .sort(); // actions in the same millisecond have no order

  it('reading or regenerating it is audited; a user reading their own is not', async () => {
    const { row, password } = await createUser(ctx);
    const own = bearer(await login(ctx, row.email, password, nextIp()));
    expect((await call('GET', `/api/users/${row.id}`, own)).statusCode).toBe(200);
    expect((await call('POST', `/api/users/${row.id}/api-token`, own)).statusCode).toBe(200);
    expect(await auditActions(row.id)).toEqual([]);

    expect((await call('GET', `/api/users/${row.id}`, admin.auth)).statusCode).toBe(200);
    expect((await call('POST', `/api/users/${row.id}/api-token`, admin.auth)).statusCode).toBe(200);
    expect((await call('GET', `/api/users/${row.id}/bash-script`, admin.auth)).statusCode).toBe(
      200,
    );
    expect(await auditActions(row.id)).toEqual([
      'admin:user.config_downloaded',
      'admin:user.token_read',
      'admin:user.token_regenerated',
    ]);
  });
});
