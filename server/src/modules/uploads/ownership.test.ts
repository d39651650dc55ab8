/** Another user's uploads and chunked sessions do not exist for you: 404, never a change. */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import {
  chunkStatus,
  completeChunked,
  sendChunk,
  startChunked,
} from '../../../test/chunked-uploads.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

const CHUNK = 1024;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, {}, { chunkSize: CHUNK });
});
afterAll(() => ctx.close());

describe("someone else's upload", () => {
  it('answers 404 on every route that names it, and stays as it was', async () => {
    const owner = await signIn(ctx);
    const other = await signIn(ctx);
    const up = (
      await uploadFile(ctx, owner.auth, { filename: 'mine.txt', data: Buffer.from('x') })
    ).json().upload as { id: string; shortCode: string };
    const as = (method: 'GET' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      ctx.app.inject({ method, url, headers: other.auth, payload });
    for (const res of [
      await as('GET', `/api/uploads/${up.id}`),
      await as('GET', `/api/uploads/${up.id}/access-url`),
      await as('PATCH', `/api/uploads/${up.id}`, { vanityUrl: 'stolen-name' }),
      await as('DELETE', `/api/uploads/${up.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    const batch = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads/batch/delete',
      headers: other.auth,
      payload: { uploadIds: [up.id] },
    });
    expect(batch.json()).toEqual({ deletedCount: 0 });
    const still = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${up.id}`,
      headers: owner.auth,
    });
    expect(still.json()).toMatchObject({ id: up.id, vanityUrl: null });
  });

  it("answers 404 on every chunked route for someone else's session, and takes nothing", async () => {
    const owner = await signIn(ctx);
    const other = await signIn(ctx);
    const data = crypto.randomBytes(CHUNK * 2);
    const uploadId = await startChunked(ctx, owner.auth, data, CHUNK);
    expect(
      (await sendChunk(ctx, owner.auth, uploadId, 0, data.subarray(0, CHUNK))).statusCode,
    ).toBe(204);

    expect((await chunkStatus(ctx, other.auth, uploadId)).statusCode).toBe(404);
    expect((await sendChunk(ctx, other.auth, uploadId, 1, Buffer.alloc(CHUNK))).statusCode).toBe(
      404,
    );
    expect((await completeChunked(ctx, other.auth, uploadId)).statusCode).toBe(404);
    const abort = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/chunked-upload/${uploadId}`,
      headers: other.auth,
    });
    expect(abort.statusCode).toBe(404);

    expect((await chunkStatus(ctx, owner.auth, uploadId)).json().receivedChunks).toEqual([0]);
    expect((await sendChunk(ctx, owner.auth, uploadId, 1, data.subarray(CHUNK))).statusCode).toBe(
      204,
    );
    expect((await completeChunked(ctx, owner.auth, uploadId)).statusCode).toBe(201);
  });
});
