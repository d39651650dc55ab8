/**
 * A chunked session holds its whole charge of the quota from the moment it opens: sessions that
 * are never completed cannot store more than the quota (40 sessions of a 1 MiB quota stored
 * 40 MiB). Released on abort and expiry, turned into the upload's charge on completion.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { sendChunk } from '../../../test/chunked-uploads.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { SESSION_TTL_MS } from './service.ts';

const CHUNK = 64 * 1024;
const KiB = 1024;
const MiB = 1024 * KiB;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, {}, { chunkSize: CHUNK });
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;

/** A user with this quota, signed in. */
async function withQuota(bytes: number) {
  const who = await signIn(ctx);
  await ctx.handle.db
    .updateTable('users')
    .set({ disk_quota: bytes })
    .where('id', '=', who.user.id)
    .execute();
  return who;
}

const init = (auth: Auth, totalSize: number) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/chunked-upload/init',
    headers: auth,
    payload: {
      filename: 'big.bin',
      mimeType: 'application/octet-stream',
      totalSize,
      totalChunks: Math.max(1, Math.ceil(totalSize / CHUNK)),
    },
  });

async function held(userId: string) {
  const row = await ctx.handle.db
    .selectFrom('users')
    .select(['disk_used', 'disk_reserved'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return { used: Number(row.disk_used), reserved: Number(row.disk_reserved) };
}

describe('a chunked session', () => {
  it('reserves its size at init: forty sessions of a 1 MiB quota open one', async () => {
    const { user, auth } = await withQuota(MiB);
    const answers = [];
    for (let i = 0; i < 40; i++) answers.push((await init(auth, MiB)).statusCode);
    expect(answers.filter((s) => s === 201)).toHaveLength(1);
    expect(answers.filter((s) => s === 413)).toHaveLength(39);
    const refused = await init(auth, 1);
    expect(refused.statusCode).toBe(413);
    expect(refused.json().message).toBe('Storage quota exceeded: 0 Bytes left');
    expect(await held(user.id)).toEqual({ used: 0, reserved: MiB });
  });

  it('leaves no room for a simple upload that does not fit beside it', async () => {
    const { auth } = await withQuota(MiB);
    expect((await init(auth, 700 * KiB)).statusCode).toBe(201);
    const simple = await uploadFile(ctx, auth, {
      filename: 'a.bin',
      data: crypto.randomBytes(400 * KiB),
    });
    expect(simple.statusCode).toBe(413);
    expect(simple.json().message).toBe('Storage quota exceeded: 324 KB left');
  });

  it('gives its reservation back when aborted, and when it expires', async () => {
    const { user, auth } = await withQuota(MiB);
    const first = await init(auth, 800 * KiB);
    expect((await init(auth, 800 * KiB)).statusCode).toBe(413);
    const aborted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/chunked-upload/${first.json().uploadId}`,
      headers: auth,
    });
    expect(aborted.statusCode).toBe(204);
    expect(await held(user.id)).toEqual({ used: 0, reserved: 0 });

    expect((await init(auth, 800 * KiB)).statusCode).toBe(201);
    ctx.clock.advance(SESSION_TTL_MS + 1000);
    expect(await ctx.modules.chunkedUploads.service.sweepExpired()).toBeGreaterThanOrEqual(1);
    expect(await held(user.id)).toEqual({ used: 0, reserved: 0 });
  });

  it('turns its reservation into the charge when completed, once', async () => {
    const { user, auth } = await withQuota(MiB);
    const data = crypto.randomBytes(3 * CHUNK);
    const started = await init(auth, data.length);
    const { uploadId } = started.json();
    expect(await held(user.id)).toEqual({ used: 0, reserved: data.length });
    for (let i = 0; i < 3; i++) {
      const res = await sendChunk(
        ctx,
        auth,
        uploadId,
        i,
        data.subarray(i * CHUNK, (i + 1) * CHUNK),
      );
      expect(res.statusCode, res.body).toBe(204);
    }
    const complete = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/chunked-upload/complete',
        headers: auth,
        payload: { uploadId },
      });
    expect((await complete()).statusCode).toBe(201);
    expect((await complete()).statusCode).toBe(200);
    expect(await held(user.id)).toEqual({ used: data.length, reserved: 0 });
    // What is left is free for the next one.
    expect((await init(auth, MiB - data.length)).statusCode).toBe(201);
    expect((await init(auth, 1)).statusCode).toBe(413);
  });

  it('lets exactly as many concurrent inits in as fit', async () => {
    const { user, auth } = await withQuota(MiB);
    const answers = await Promise.all(Array.from({ length: 10 }, () => init(auth, 200 * KiB)));
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(5);
    expect(answers.filter((r) => r.statusCode === 413)).toHaveLength(5);
    expect(await held(user.id)).toEqual({ used: 0, reserved: 1000 * KiB });
  });
});
