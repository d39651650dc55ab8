/**
 * A link already pasted somewhere never comes to serve someone else's file: a deleted upload's
 * short code is never issued again, a vanity URL given up (removed, its upload deleted, its
 * owner deleted) stays its former owner's for 90 days, and a vanity URL of a short code's shape
 * is refused.
 */
import crypto from 'node:crypto';
import { uploadSearch } from '../../db/search.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { uploadFile, uploadRow } from '../../../test/uploads.ts';
import { login, signIn } from '../../../test/users.ts';
import { createUploadsRepository } from './repository.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const DAY_MS = 24 * 60 * 60 * 1000;
type Uploaded = { id: string; shortCode: string };

async function put(auth: Record<string, string>, text: string): Promise<Uploaded> {
  const res = await uploadFile(ctx, auth, { filename: 'note.txt', data: Buffer.from(text) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ upload: Uploaded }>().upload;
}
const setVanity = (auth: Record<string, string>, id: string, vanityUrl: string | null) =>
  ctx.app.inject({
    method: 'PATCH',
    url: `/api/uploads/${id}`,
    headers: auth,
    payload: { vanityUrl },
  });
const remove = (auth: Record<string, string>, id: string) =>
  ctx.app.inject({ method: 'DELETE', url: `/api/uploads/${id}`, headers: auth });
const served = async (path: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: path });
  return res.statusCode === 200 ? res.body : res.statusCode;
};
const vanityName = () => `gone-${crypto.randomBytes(4).toString('hex')}`;

describe("a deleted upload's short code", () => {
  it('answers 404 and is never issued again', async () => {
    const owner = await signIn(ctx);
    const up = await put(owner.auth, 'mine');
    expect((await remove(owner.auth, up.id)).statusCode).toBe(204);
    expect(await served(`/${up.shortCode}`)).toBe(404);
    // The draw of a new upload's code meets it as taken, and draws another.
    const repo = createUploadsRepository(ctx.handle.db, uploadSearch(ctx.handle.dialect));
    const other = await signIn(ctx);
    const again = uploadRow(other.user.id, { short_code: up.shortCode, size: 1 });
    expect(await repo.insertCharged(again, [])).toBe('code-taken');
    expect(await served(`/${up.shortCode}`)).toBe(404);
  });
});

describe('a vanity URL given up', () => {
  for (const how of ['removed', 'its upload deleted', 'its owner deleted'] as const) {
    it(`(${how}) cannot be claimed by anyone else for 90 days, then can`, async () => {
      // Signed in now: the clock moves 91 days in each of these tests.
      const admin = await signIn(ctx, 'admin');
      const owner = await signIn(ctx);
      const up = await put(owner.auth, 'the original');
      const name = vanityName();
      expect((await setVanity(owner.auth, up.id, name)).statusCode).toBe(200);
      expect(await served(`/${name}`)).toBe('the original');

      if (how === 'removed')
        expect((await setVanity(owner.auth, up.id, null)).statusCode).toBe(200);
      if (how === 'its upload deleted')
        expect((await remove(owner.auth, up.id)).statusCode).toBe(204);
      if (how === 'its owner deleted') {
        const res = await ctx.app.inject({
          method: 'DELETE',
          url: `/api/users/${owner.user.id}`,
          headers: admin.auth,
        });
        expect(res.statusCode, res.body).toBe(204);
      }
      expect(await served(`/${name}`)).toBe(404);

      const thief = await signIn(ctx);
      const bait = await put(thief.auth, 'not the original');
      const early = await setVanity(thief.auth, bait.id, name.toUpperCase());
      expect(early.statusCode).toBe(409);
      expect(early.json().message).toBe(`"${name.toUpperCase()}" is already taken`);
      // Not even an admin acting on another user's upload takes it for them.
      expect((await setVanity(admin.auth, bait.id, name)).statusCode).toBe(409);
      expect(await served(`/${name}`)).toBe(404);

      // Signed in again each time: a session lasts 30 days.
      const later = async (days: number) => {
        ctx.clock.advance(days * DAY_MS);
        const token = await login(ctx, thief.user.email, 'correct horse battery', '10.8.0.1');
        return { authorization: `Bearer ${token}` };
      };
      expect((await setVanity(await later(89), bait.id, name)).statusCode).toBe(409);
      expect((await setVanity(await later(2), bait.id, name)).statusCode).toBe(200);
      expect(await served(`/${name}`)).toBe('not the original');
    });
  }

  it("is its former owner's to take back, for the same upload or another", async () => {
    const owner = await signIn(ctx);
    const first = await put(owner.auth, 'first');
    const name = vanityName();
    expect((await setVanity(owner.auth, first.id, name)).statusCode).toBe(200);
    expect((await setVanity(owner.auth, first.id, 'renamed-' + name)).statusCode).toBe(200);
    expect(await served(`/${name}`)).toBe(404);
    const second = await put(owner.auth, 'second');
    expect((await setVanity(owner.auth, second.id, name)).statusCode).toBe(200);
    expect(await served(`/${name}`)).toBe('second');
    // The same name set again on its own upload stays its own.
    expect((await setVanity(owner.auth, second.id, name)).statusCode).toBe(200);
    expect(await served(`/${name}`)).toBe('second');
  });
});

describe("a vanity URL of a short code's shape", () => {
  it('is refused in any case, naming why; one letter more is fine', async () => {
    const owner = await signIn(ctx);
    const up = await put(owner.auth, 'shape');
    for (const name of ['screen', 'ABC234', 'zz99zz']) {
      const res = await setVanity(owner.auth, up.id, name);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().message).toBe(
        'Custom URL must not look like a short code (6 letters and digits): make it longer or add a hyphen',
      );
    }
    for (const name of ['screens', 'scr-en', 'photos', 'ab1234']) {
      expect((await setVanity(owner.auth, up.id, name)).statusCode, name).toBe(200);
    }
  });
});
