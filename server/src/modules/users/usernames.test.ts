/**
 * What a username may be, wherever one is set (an administrator creating or renaming a user, an
 * invitation accepted under another name, ADMIN_USERNAME), and an access request's name: no
 * bidirectional controls (`evil\u202Enimda` shows as "eviladmin"), and a username's letters
 * from one script (`rооtadmin` with Cyrillic o's passes for `rootadmin`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = await signIn(ctx, 'admin');
});
afterAll(() => ctx.close());

const BIDI = ['\u202e', '\u202a', '\u202d', '\u2066', '\u2069', '\u200e', '\u200f', '\u061c'];
const NO_BIDI = 'username: must not contain bidirectional control characters';
const MIXED = 'username: must not mix letters of different scripts (such as Latin and Cyrillic)';
/** Letters of two scripts that pass for one word. */
const LOOKALIKES = [
  'r\u043e\u043etadmin', // Cyrillic о
  '\u0430dmin', // Cyrillic а
  'p\u0430yp\u0430l', // Cyrillic а
  '\u03bfscar', // Greek ο
  'admin_\u0391\u0392', // Greek capitals
  '\u0410\u0392\u0421', // Cyrillic А, Greek Β, Cyrillic С
  'admin\uff4f\u043e', // fullwidth Latin o (NFKC: o) beside Cyrillic о
];
/** Usernames people have, each in one script (or Japanese, Chinese, Korean with Latin). */
const FINE = [
  'ada.lovelace',
  'user-01_x',
  'Ünal',
  'José García',
  'O\u0301scar', // a combining accent: Inherited, with any script
  'Дмитрий_2',
  'Ελένη',
  'יוסי',
  'محمد',
  '山田太郎',
  'やまだ_タロウ_山田',
  'taro.山田',
  '김민준',
  'ｆｕｌｌｗｉｄｔｈ', // fullwidth Latin
  '🙂 smiley',
];

let seq = 0;
const createUser = (username: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users',
    headers: admin.auth,
    payload: { email: `names${++seq}@example.com`, username },
  });

describe('a username', () => {
  it('refuses bidirectional controls, naming the field', async () => {
    for (const bidi of BIDI) {
      const res = await createUser(`evil${bidi}nimda`);
      expect(res.statusCode, JSON.stringify(bidi)).toBe(400);
      expect(res.json()).toEqual({ error: 'validation_error', message: NO_BIDI });
    }
  });

  it('refuses letters of two scripts, naming the field', async () => {
    for (const name of LOOKALIKES) {
      const res = await createUser(name);
      expect(res.statusCode, name).toBe(400);
      expect(res.json()).toEqual({ error: 'validation_error', message: MIXED });
    }
  });

  it('takes names in one script, with digits, punctuation, spaces and accents', async () => {
    for (const name of FINE) {
      const res = await createUser(name);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(201);
      expect(res.json().user.username).toBe(name);
    }
  });

  it('is checked when an administrator renames a user', async () => {
    const made = (await createUser('plain.name')).json().user;
    const rename = (username: string) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/users/${made.id}`,
        headers: admin.auth,
        payload: { username },
      });
    expect((await rename('r\u043e\u043etadmin')).json().message).toBe(MIXED);
    expect((await rename('evil\u202enimda')).json().message).toBe(NO_BIDI);
    const ok = await rename('Дмитрий');
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('is checked when an invitation is accepted under another name', async () => {
    const made = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin.auth,
      payload: { email: 'invited-names@example.com', username: 'invited', sendInvite: true },
    });
    const code = made.json<{ inviteCode: string }>().inviteCode;
    const register = (username: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: `10.99.0.${++seq}`,
        payload: { inviteCode: code, password: 'long enough', username },
      });
    for (const [name, message] of [
      ['evil\u202enimda', NO_BIDI],
      ['r\u043e\u043etadmin', MIXED],
    ] as const) {
      const res = await register(name);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'validation_error', message });
    }
    // The invitation is still good for a fine name.
    expect((await register('invited.ok')).statusCode).toBe(200);
  });

  it('is checked in ADMIN_USERNAME, the error naming the variable', () => {
    expect(() => loadConfig({ ADMIN_USERNAME: 'evil\u202enimda' })).toThrow(
      /ADMIN_USERNAME: must not contain bidirectional control characters/,
    );
    expect(() => loadConfig({ ADMIN_USERNAME: 'r\u043e\u043etadmin' })).toThrow(
      /ADMIN_USERNAME: must not mix letters of different scripts/,
    );
    expect(loadConfig({ ADMIN_USERNAME: 'Ünal' }).admin.username).toBe('Ünal');
  });
});

describe("an access request's name", () => {
  it('refuses bidirectional controls, naming the field', async () => {
    for (const bidi of BIDI) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/access-requests',
        remoteAddress: `10.98.0.${++seq}`,
        payload: { email: `req${seq}@example.com`, name: `Ann ${bidi}Smith`, reason: 'hello' },
      });
      expect(res.statusCode, JSON.stringify(bidi)).toBe(400);
      expect(res.json()).toEqual({
        error: 'validation_error',
        message: 'name: must not contain bidirectional control characters',
      });
    }
    // A name in any script, or two (people's names are not logins), is fine.
    const ok = await ctx.app.inject({
      method: 'POST',
      url: '/api/access-requests',
      remoteAddress: '10.98.1.1',
      payload: { email: 'req-ok@example.com', name: 'Анна Smith', reason: 'hello' },
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });
});
