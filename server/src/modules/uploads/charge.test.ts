/**
 * What an upload costs its owner's quota: its size, and at least one 4 KiB block (an empty
 * file too), for simple and chunked uploads alike; every way of deleting it gives back exactly
 * that, and Storage Used shows the same figure.
 */
import { MIN_CHARGE_BYTES } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completeChunked,
  initChunked,
  sendAll,
  startChunked,
} from '../../../test/chunked-uploads.ts';
import { createTestContext, filesUnder, type TestContext } from '../../../test/context.ts';
import { diskUsedOf, uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

const CHUNK = 64 * 1024;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, {}, { chunkSize: CHUNK });
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;
const setQuota = (userId: string, bytes: number) =>
  ctx.handle.db.updateTable('users').set({ disk_quota: bytes }).where('id', '=', userId).execute();
const put = (auth: Auth, name: string, size: number) =>
  uploadFile(ctx, auth, { filename: name, data: Buffer.alloc(size, 1) });
const rowsOf = async (userId: string) =>
  (await ctx.handle.db.selectFrom('uploads').select('id').where('user_id', '=', userId).execute())
    .length;
const storageUsed = async (auth: Auth) =>
  (await ctx.app.inject({ method: 'GET', url: '/api/stats', headers: auth })).json<{
    totalSize: number;
  }>().totalSize;

describe('the charge of an upload', () => {
  it('is one 4 KiB block for an empty file: a 0-byte quota takes none', async () => {
    const { user, auth } = await signIn(ctx);
    await setQuota(user.id, 0);
    const files = filesUnder(ctx.dataDir).length;
    for (let i = 0; i < 3; i++) {
      const res = await put(auth, `empty-${i}.txt`, 0);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({
        error: 'payload_too_large',
        message: 'Storage quota exceeded: 0 Bytes left',
      });
    }
    expect(await rowsOf(user.id)).toBe(0);
    expect(await diskUsedOf(ctx, user.id)).toBe(0);
    expect(filesUnder(ctx.dataDir).length).toBe(files);
  });

  it('lets a quota of n blocks hold n small files, and shows that as Storage Used', async () => {
    const { user, auth } = await signIn(ctx);
    await setQuota(user.id, 3 * MIN_CHARGE_BYTES);
    for (const size of [0, 1, MIN_CHARGE_BYTES]) {
      expect((await put(auth, `f-${size}`, size)).statusCode).toBe(201);
    }
    const fourth = await put(auth, 'one-more', 0);
    expect(fourth.statusCode).toBe(413);
    expect(fourth.json().message).toBe('Storage quota exceeded: 0 Bytes left');
    expect(await diskUsedOf(ctx, user.id)).toBe(3 * MIN_CHARGE_BYTES);
    expect(await storageUsed(auth)).toBe(3 * MIN_CHARGE_BYTES);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: auth });
    expect(me.json()).toMatchObject({ diskUsed: 3 * MIN_CHARGE_BYTES });
  });

  it('is the size of a file larger than a block', async () => {
    const { user, auth } = await signIn(ctx);
    expect((await put(auth, 'big', MIN_CHARGE_BYTES + 1)).statusCode).toBe(201);
    expect(await diskUsedOf(ctx, user.id)).toBe(MIN_CHARGE_BYTES + 1);
  });

  it('is the same for a chunked upload, checked at init and at completion', async () => {
    const { user, auth } = await signIn(ctx);
    await setQuota(user.id, 3000);
    const refused = await initChunked(ctx, auth, {
      filename: 'tiny.bin',
      mimeType: '',
      totalSize: 10,
      totalChunks: 1,
    });
    expect(refused.statusCode).toBe(413);
    expect(refused.json().message).toBe('Storage quota exceeded: 2.93 KB left');

    await setQuota(user.id, MIN_CHARGE_BYTES);
    const data = Buffer.alloc(10, 2);
    const id = await startChunked(ctx, auth, data, CHUNK);
    await sendAll(ctx, auth, id, data, CHUNK);
    expect((await completeChunked(ctx, auth, id)).statusCode).toBe(201);
    expect(await diskUsedOf(ctx, user.id)).toBe(MIN_CHARGE_BYTES);
  });
});

describe('deleting an upload', () => {
  it('gives back exactly what it was charged, on every path', async () => {
    const { user, auth } = await signIn(ctx);
    const sizes = [0, 10, MIN_CHARGE_BYTES, MIN_CHARGE_BYTES + 7, 20_000];
    const made: { id: string; deletionUrl: string }[] = [];
    for (const [i, size] of sizes.entries()) {
      const res = await put(auth, `d-${i}`, size);
      expect(res.statusCode).toBe(201);
      made.push({ id: res.json().upload.id, deletionUrl: res.json().deletionUrl });
    }
    const charges = sizes.map((s) => Math.max(s, MIN_CHARGE_BYTES));
    let used = charges.reduce((a, b) => a + b);
    expect(await diskUsedOf(ctx, user.id)).toBe(used);

    // One by one.
    const one = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${made[0]!.id}`,
      headers: auth,
    });
    expect(one.statusCode).toBe(204);
    used -= charges[0]!;
    expect(await diskUsedOf(ctx, user.id)).toBe(used);

    // By its deletion link, without signing in.
    const link = new URL(made[1]!.deletionUrl);
    const byLink = await ctx.app.inject({
      method: 'POST',
      url: link.pathname,
      payload: { signature: link.searchParams.get('signature') },
    });
    expect(byLink.statusCode).toBe(200);
    used -= charges[1]!;
    expect(await diskUsedOf(ctx, user.id)).toBe(used);

    // In a batch, the rest.
    const batch = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads/batch/delete',
      headers: auth,
      payload: { uploadIds: made.slice(2).map((m) => m.id) },
    });
    expect(batch.json()).toEqual({ deletedCount: 3 });
    expect(await diskUsedOf(ctx, user.id)).toBe(0);
    expect(await storageUsed(auth)).toBe(0);
  });

  it("with its user, takes exactly the user's charge out of the instance's Storage Used", async () => {
    const admin = await signIn(ctx, 'admin');
    const { user, auth } = await signIn(ctx);
    const instanceStorage = async () =>
      (await ctx.app.inject({ method: 'GET', url: '/api/stats/admin', headers: admin.auth })).json<{
        totalStorage: number;
      }>().totalStorage;
    const before = await instanceStorage();
    for (const size of [0, 5, 9000])
      expect((await put(auth, `u-${size}`, size)).statusCode).toBe(201);
    const charged = 2 * MIN_CHARGE_BYTES + 9000;
    expect(await instanceStorage()).toBe(before + charged);
    const gone = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/${user.id}`,
      headers: admin.auth,
    });
    expect(gone.statusCode).toBe(204);
    expect(await instanceStorage()).toBe(before);
  });
});
