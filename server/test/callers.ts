/**
 * Every kind of caller an API route can meet, made for real: users signed in over HTTP (a
 * session) or holding their API token, an administrator, a user an administrator made (whose
 * temporary password must change first), a deactivated user still holding a session and a
 * token, an expired session, tokens that were never issued, and nobody at all.
 */
import crypto from 'node:crypto';
import type { UserRow } from '../src/db/schema.ts';
import type { TestContext } from './context.ts';
import { createUser, login } from './users.ts';

/** Someone with an account: the row, the password, a session and the personal API token. */
export type Person = { user: UserRow; password: string; session: string; token: string };

export const CALLER_KINDS = [
  'anonymous',
  'badSession',
  'badApiToken',
  'expiredSession',
  'owner',
  'ownerToken',
  'other',
  'admin',
  'adminToken',
  'mustChange',
  'deactivated',
  'deactivatedToken',
  'inactiveSession',
] as const;
export type CallerKind = (typeof CALLER_KINDS)[number];

/** The callers whose credentials open nothing that is not public. */
export const SIGNED_OUT: ReadonlySet<CallerKind> = new Set([
  'anonymous',
  'badSession',
  'badApiToken',
  'expiredSession',
  'deactivated',
  'deactivatedToken',
  'inactiveSession',
]);

/** Who a kind of caller is (null: nobody), and whether it comes with its API token. */
export const WHO: Record<CallerKind, { person: keyof People | null; via: 'session' | 'token' }> = {
  anonymous: { person: null, via: 'session' },
  badSession: { person: null, via: 'session' },
  badApiToken: { person: null, via: 'token' },
  expiredSession: { person: 'expired', via: 'session' },
  owner: { person: 'owner', via: 'session' },
  ownerToken: { person: 'owner', via: 'token' },
  other: { person: 'other', via: 'session' },
  admin: { person: 'admin', via: 'session' },
  adminToken: { person: 'admin', via: 'token' },
  mustChange: { person: 'mustChange', via: 'session' },
  deactivated: { person: 'deactivated', via: 'session' },
  deactivatedToken: { person: 'deactivated', via: 'token' },
  inactiveSession: { person: 'inactive', via: 'session' },
};

export type People = {
  owner: Person;
  other: Person;
  admin: Person;
  mustChange: Person;
  deactivated: Person;
  expired: Person;
  inactive: Person;
};

let address = 0;
/** A client address of its own for each sign-in (the limits count per address). */
export const nextAddress = () => `10.77.${Math.floor(++address / 250) % 250}.${address % 250}`;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function createCallers(ctx: TestContext) {
  const users = ctx.modules.users.service;

  async function person(role: 'user' | 'admin' = 'user'): Promise<Person> {
    const { row, password } = await createUser(ctx, { role });
    const session = await login(ctx, row.email, password, nextAddress());
    return { user: row, password, session, token: users.revealApiToken(row) };
  }

  /** A user an administrator made: signed in with the temporary password, which must change. */
  async function mustChange(admin: Person): Promise<Person> {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: bearer(admin.session),
      payload: {
        email: `made-${crypto.randomUUID()}@example.com`,
        username: `made_${crypto.randomUUID().slice(0, 8)}`,
        role: 'user',
        sendInvite: false,
      },
    });
    if (res.statusCode !== 201) throw new Error(`create user: ${res.statusCode} ${res.body}`);
    const { user, tempPassword } = res.json<{ user: { id: string }; tempPassword: string }>();
    const row = await users.get(user.id);
    const session = await login(ctx, row.email, tempPassword, nextAddress());
    return { user: row, password: tempPassword, session, token: users.revealApiToken(row) };
  }

  /** A user who signed in and kept their token, then was deactivated by an administrator. */
  async function deactivated(admin: Person): Promise<Person> {
    const p = await person();
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/${p.user.id}`,
      headers: bearer(admin.session),
      payload: { isActive: false },
    });
    if (res.statusCode !== 200) throw new Error(`deactivate: ${res.statusCode} ${res.body}`);
    return p;
  }

  /** A user whose session ran past its expiry (its row is still there). */
  async function expired(): Promise<Person> {
    const p = await person();
    await ctx.handle.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('user_id', '=', p.user.id)
      .execute();
    return p;
  }

  /**
   * A user marked inactive whose session row is still there: deactivating signs a user out
   * everywhere, so only a session opened in the same instant could be left like this.
   */
  async function inactive(): Promise<Person> {
    const p = await person();
    await ctx.handle.db
      .updateTable('users')
      .set({ is_active: 0 })
      .where('id', '=', p.user.id)
      .execute();
    return p;
  }

  /** A new person of this kind (an administrator makes those that need one). */
  function make(name: keyof People, admin: Person): Promise<Person> {
    switch (name) {
      case 'admin':
        return person('admin');
      case 'mustChange':
        return mustChange(admin);
      case 'deactivated':
        return deactivated(admin);
      case 'expired':
        return expired();
      case 'inactive':
        return inactive();
      default:
        return person();
    }
  }

  async function people(): Promise<People> {
    const admin = await person('admin');
    return {
      owner: await person(),
      other: await person(),
      admin,
      mustChange: await mustChange(admin),
      deactivated: await deactivated(admin),
      expired: await expired(),
      inactive: await inactive(),
    };
  }

  /** The headers a kind of caller sends. */
  function headers(kind: CallerKind, who: People): Record<string, string> {
    if (kind === 'anonymous') return {};
    if (kind === 'badSession') return bearer('not-a-session-token');
    if (kind === 'badApiToken') return { 'x-api-token': 'up_not-an-api-token' };
    const { person: name, via } = WHO[kind];
    const p = who[name!];
    return via === 'token' ? { 'x-api-token': p.token } : bearer(p.session);
  }

  return { person, make, people, headers };
}
