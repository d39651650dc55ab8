/** Access requests for API tests: a visitor's request body, sent from an address of its own. */
import { identityKey } from '@upshot/contract';
import { sql } from 'kysely';
import type { TestContext } from './context.ts';

let ip = 0;
/** A fresh client address (the endpoint is limited per address). */
export const visitorIp = () => `10.61.${Math.floor(++ip / 200) % 250}.${ip % 200}`;

let seq = 0;
export function aRequest(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    email: `visitor${seq}-${Date.now().toString(36)}@example.com`,
    name: `Visitor ${seq}`,
    reason: 'I would like to share screenshots with the team.',
    ...overrides,
  };
}

/** POST /api/access-requests with no sign-in; a string body is sent as it is. */
export const submitRequest = (
  ctx: TestContext,
  body: unknown,
  remoteAddress = visitorIp(),
  headers: Record<string, string> = {},
) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/access-requests',
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    remoteAddress,
  });

/**
 * The requests stored for an email (in any case) that an administrator sees, oldest first (a
 * request for an email that has an account is kept as `member`, never shown or decided).
 */
export const requestRows = (ctx: TestContext, email: string) =>
  ctx.handle.db
    .selectFrom('access_requests')
    .selectAll()
    .where('email_key', '=', identityKey(email))
    .where('status', '!=', 'member')
    .orderBy('created_at')
    .execute();

/** Submits a request that must be accepted and recorded, and answers its row. */
export async function submitPending(ctx: TestContext, overrides: Record<string, unknown> = {}) {
  const body = aRequest(overrides);
  const res = await submitRequest(ctx, body);
  if (res.statusCode !== 201) throw new Error(`request refused: ${res.statusCode} ${res.body}`);
  const rows = await requestRows(ctx, body.email);
  if (rows.length !== 1) throw new Error(`expected one row for ${body.email}, got ${rows.length}`);
  return rows[0]!;
}

export async function countRows(
  ctx: TestContext,
  table: 'access_requests' | 'users' | 'invites' | 'audit_log' | 'sessions',
): Promise<number> {
  let q = ctx.handle.db.selectFrom(table);
  // Access requests an administrator sees: `member` rows are not theirs to act on.
  if (table === 'access_requests') q = q.where(sql<boolean>`status != 'member'`);
  const row = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
