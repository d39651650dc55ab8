/**
 * The completion and chunk-claim rules of chunked uploads (the service's header comment): a
 * chunk claims its part before writing, completion claims the session, and once a session is
 * completing or completed no chunk is taken and the committed bytes never change.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, filesUnder, type TestContext } from '../../../test/context.ts';
import {
  abortChunked,
  chunkStatus,
  completeChunked,
  initChunked,
  multipartFile,
  openChunk,
  partRows,
  readRange,
  sendAll,
  sendChunk,
  sessionRow,
  sliceOf,
  startChunked,
  waitForWriting,
} from '../../../test/chunked-uploads.ts';
import { diskUsedOf, multipart, uploadFile, uploadIdsOf } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { COMPLETION_STALE_MS, PART_STALE_MS, SESSION_TTL_MS } from './index.ts';

const SMALL = 64 * 1024;
let ctx: TestContext;
let address: string;
beforeAll(async () => {
  ctx = await createTestContext({}, {}, { chunkSize: SMALL });
  address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;

async function served(shortCode: string): Promise<Buffer> {
  const res = await ctx.app.inject({ method: 'GET', url: `/${shortCode}` });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

/** A session with every chunk stored. */
async function filled(auth: Auth, data: Buffer, fields: Record<string, unknown> = {}) {
  const uploadId = await startChunked(ctx, auth, data, SMALL, fields);
  await sendAll(ctx, auth, uploadId, data, SMALL);
  return uploadId;
}

/** Marks a session as a completion left it: claimed by `claim` at `claimedAt` (now by default). */
async function claimedBy(
  c: TestContext,
  uploadId: string,
  claim: string,
  claimedAt = c.clock.now(),
  more: { upload_id?: null } = {},
) {
  await c.handle.db
    .updateTable('chunked_uploads')
    .set({ status: 'completing', claim, claimed_at: claimedAt.toISOString(), ...more })
    .where('id', '=', uploadId)
    .execute();
}

async function uploadRowsWithId(id: string) {
  return ctx.handle.db.selectFrom('uploads').select('id').where('id', '=', id).execute();
}

describe('a chunk and a completion on one session', () => {
  it('refuses to complete while a re-sent chunk is being received, then completes with its new bytes', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 3 + 100);
    const uploadId = await filled(auth, data);
    const session = (await sessionRow(ctx, uploadId))!;
    const newChunk = crypto.randomBytes(SMALL);

    const writer = openChunk(address, auth, uploadId, 0, newChunk);
    try {
      await writer.send(SMALL / 2);
      await waitForWriting(ctx, uploadId, 0);

      const early = await completeChunked(ctx, auth, uploadId);
      expect(early.statusCode, early.body).toBe(409);
      expect(early.json().message).toMatch(/Chunk 0 is still being received/);
      expect(await uploadRowsWithId(uploadId)).toHaveLength(0);
      expect((await sessionRow(ctx, uploadId))?.status).toBe('open');

      const done = await writer.finish();
      expect(done.status, done.body).toBe(204);
    } finally {
      writer.destroy();
    }
    expect(readRange(multipartFile(ctx, session.multipart_id), 0, SMALL).equals(newChunk)).toBe(
      true,
    );

    const res = await completeChunked(ctx, auth, uploadId);
    expect(res.statusCode, res.body).toBe(201);
    const expected = Buffer.concat([newChunk, data.subarray(SMALL)]);
    expect((await served(res.json().upload.shortCode)).equals(expected)).toBe(true);
  });

  it('refuses a chunk for a completed session, and its bytes never change', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2 + 7);
    const uploadId = await filled(auth, data);
    const done = await completeChunked(ctx, auth, uploadId);
    expect(done.statusCode).toBe(201);
    const { shortCode } = done.json().upload;
    const before = await served(shortCode);
    expect(before.equals(data)).toBe(true);

    for (const i of [0, 2]) {
      const res = await sendChunk(ctx, auth, uploadId, i, crypto.randomBytes(i === 2 ? 7 : SMALL));
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('Upload is already complete');
    }
    // Even when the session row reads as a claim in progress (a completion taking over).
    await claimedBy(ctx, uploadId, 'x');
    const claimed = await sendChunk(ctx, auth, uploadId, 1, crypto.randomBytes(SMALL));
    expect(claimed.statusCode).toBe(409);
    expect(claimed.json().message).toBe('Upload is already being completed');
    expect((await served(shortCode)).equals(before)).toBe(true);
  });

  it('refuses a chunk while the session is claimed for completion, and stores nothing', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2);
    const uploadId = await filled(auth, data);
    const session = (await sessionRow(ctx, uploadId))!;
    await claimedBy(ctx, uploadId, 'x');

    const res = await sendChunk(ctx, auth, uploadId, 0, crypto.randomBytes(SMALL));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Upload is already being completed');
    expect(fs.readFileSync(multipartFile(ctx, session.multipart_id)).equals(data)).toBe(true);
    const parts = await partRows(ctx, uploadId);
    expect(parts.map((p) => [Number(p.chunk_index), p.state])).toEqual([
      [0, 'stored'],
      [1, 'stored'],
    ]);
  });
});

describe('two writers of one chunk', () => {
  it('refuses a second request for a chunk whose writer is alive', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2);
    const uploadId = await startChunked(ctx, auth, data, SMALL);
    const first = openChunk(address, auth, uploadId, 1, sliceOf(data, 1, SMALL));
    try {
      await first.send(1000);
      await waitForWriting(ctx, uploadId, 1);
      const second = await sendChunk(ctx, auth, uploadId, 1, crypto.randomBytes(SMALL));
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toBe('Chunk 1 is already being received');
      const done = await first.finish();
      expect(done.status, done.body).toBe(204);
    } finally {
      first.destroy();
    }
    await sendChunk(ctx, auth, uploadId, 0, sliceOf(data, 0, SMALL));
    const res = await completeChunked(ctx, auth, uploadId);
    expect(res.statusCode).toBe(201);
    expect((await served(res.json().upload.shortCode)).equals(data)).toBe(true);
  });

  it('lets another request take over a chunk whose writer stopped showing it is alive', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2);
    const uploadId = await startChunked(ctx, auth, data, SMALL);
    const session = (await sessionRow(ctx, uploadId))!;
    const stale = crypto.randomBytes(SMALL);
    const old = openChunk(address, auth, uploadId, 0, stale);
    try {
      await old.send(SMALL / 2);
      await waitForWriting(ctx, uploadId, 0);
      // Its first half is on disk before the writer goes quiet.
      await vi.waitFor(() =>
        expect(
          readRange(multipartFile(ctx, session.multipart_id), 0, SMALL / 2).equals(
            stale.subarray(0, SMALL / 2),
          ),
        ).toBe(true),
      );

      ctx.clock.advance(PART_STALE_MS + 1000);
      const fresh = await sendChunk(ctx, auth, uploadId, 0, sliceOf(data, 0, SMALL));
      expect(fresh.statusCode, fresh.body).toBe(204);

      // The writer that lost its part writes nothing more.
      const late = await old.finish();
      expect(late.status).toBe(409);
      expect(JSON.parse(late.body).message).toBe('Chunk 0 was sent again meanwhile');
    } finally {
      old.destroy();
    }
    expect(
      readRange(multipartFile(ctx, session.multipart_id), 0, SMALL).equals(sliceOf(data, 0, SMALL)),
    ).toBe(true);
    await sendChunk(ctx, auth, uploadId, 1, sliceOf(data, 1, SMALL));
    const res = await completeChunked(ctx, auth, uploadId);
    expect(res.statusCode).toBe(201);
    expect((await served(res.json().upload.shortCode)).equals(data)).toBe(true);
  });
});

describe('repeated and concurrent completion', () => {
  it('waits for a fresh completion claim, and takes over a stale one (its request crashed)', async () => {
    const { user, auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL + 500);
    const uploadId = await filled(auth, data);
    await claimedBy(ctx, uploadId, 'x');

    const busy = await completeChunked(ctx, auth, uploadId);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe('Upload is already being completed');
    expect(await uploadIdsOf(ctx, user.id)).toEqual([]);

    ctx.clock.advance(COMPLETION_STALE_MS + 1000);
    const res = await completeChunked(ctx, auth, uploadId);
    expect(res.statusCode, res.body).toBe(201);
    expect((await served(res.json().upload.shortCode)).equals(data)).toBe(true);
    expect(await diskUsedOf(ctx, user.id)).toBe(data.length);
    expect((await sessionRow(ctx, uploadId))?.status).toBe('completed');
  });

  it('answers a completion whose answer was lost with the same upload, charged once', async () => {
    const { user, auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2 + 3);
    const uploadId = await filled(auth, data);
    const first = await completeChunked(ctx, auth, uploadId);
    expect(first.statusCode).toBe(201);
    const again = await completeChunked(ctx, auth, uploadId);
    expect(again.statusCode).toBe(200);
    expect(again.json().upload.id).toBe(first.json().upload.id);
    expect(again.json().upload.shortCode).toBe(first.json().upload.shortCode);
    expect(await diskUsedOf(ctx, user.id)).toBe(data.length);
    expect(await uploadIdsOf(ctx, user.id)).toEqual([first.json().upload.id]);
  });

  it.each([
    ['with room to spare', null],
    // The retry used to charge the size again, fail the quota, and delete the upload's bytes.
    ['for a user near the quota', 1.5],
  ])(
    'records a completion that crashed between the upload insert and marking the session, %s',
    async (_, quota) => {
      const { user, auth } = await signIn(ctx);
      const data = crypto.randomBytes(SMALL * 2 + 3);
      if (quota !== null) {
        await ctx.handle.db
          .updateTable('users')
          .set({ disk_quota: Math.floor(data.length * quota) })
          .where('id', '=', user.id)
          .execute();
      }
      const uploadId = await filled(auth, data);
      const parts = await partRows(ctx, uploadId);
      const first = await completeChunked(ctx, auth, uploadId);
      expect(first.statusCode).toBe(201);
      const upload = first.json().upload;

      // As the crash would leave it: the upload row exists, the session still claimed by the
      // dead request (long ago) and still holding its stored parts (marking the session
      // completed and removing its parts is one transaction).
      const staleAt = new Date(ctx.clock.now().getTime() - COMPLETION_STALE_MS - 1000);
      await claimedBy(ctx, uploadId, 'x', staleAt, { upload_id: null });
      await ctx.handle.db.insertInto('chunked_upload_parts').values(parts).execute();

      const res = await completeChunked(ctx, auth, uploadId);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().upload.id).toBe(upload.id);
      expect(await diskUsedOf(ctx, user.id)).toBe(data.length);
      expect(await uploadIdsOf(ctx, user.id)).toEqual([upload.id]);
      const session = await sessionRow(ctx, uploadId);
      expect(session).toMatchObject({ status: 'completed', upload_id: upload.id });
      expect((await served(upload.shortCode)).equals(data)).toBe(true);
      // And once more, now from the completed session.
      const third = await completeChunked(ctx, auth, uploadId);
      expect(third.statusCode).toBe(200);
      expect(third.json().upload.id).toBe(upload.id);
    },
  );

  it('answers the upload a completion made even when the session lost its parts', async () => {
    // Reachable when a completion whose claim was taken over (it stalled past
    // COMPLETION_STALE_MS) marks the session: its markCompleted matches no claim but still
    // removes the parts, under the request that took over.
    const { user, auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2 + 3);
    const uploadId = await filled(auth, data);
    const first = await completeChunked(ctx, auth, uploadId);
    expect(first.statusCode).toBe(201);
    const upload = first.json().upload;
    const staleAt = new Date(ctx.clock.now().getTime() - COMPLETION_STALE_MS - 1000);
    await claimedBy(ctx, uploadId, 'x', staleAt, { upload_id: null });

    const res = await completeChunked(ctx, auth, uploadId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().upload.id).toBe(upload.id);
    expect(await diskUsedOf(ctx, user.id)).toBe(data.length);
    expect(await uploadIdsOf(ctx, user.id)).toEqual([upload.id]);
  });

  it('makes one upload of five completions at once, charged once', async () => {
    const { user, auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 3 + 11);
    const uploadId = await filled(auth, data);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => completeChunked(ctx, auth, uploadId)),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.every((c) => c === 201 || c === 200 || c === 409)).toBe(true);
    const created = answers.find((a) => a.statusCode === 201)!.json().upload.id;
    for (const a of answers.filter((x) => x.statusCode === 200)) {
      expect(a.json().upload.id).toBe(created);
    }
    expect(await uploadIdsOf(ctx, user.id)).toEqual([created]);
    expect(await diskUsedOf(ctx, user.id)).toBe(data.length);
    const again = await completeChunked(ctx, auth, uploadId);
    expect(again.statusCode).toBe(200);
    expect(again.json().upload.id).toBe(created);
  });
});

describe('a completion that failed once the store had the parts to join', () => {
  it.each([
    ['the upload row could not be written', 'record'],
    ["the store's answer to the join was lost", 'join'],
  ] as const)(
    'takes no chunk after it (%s), and the next completion makes the upload',
    async (_, where) => {
      // Before, the session was reopened: a chunk sent again met a part that no longer exists
      // (the parts were joined), answered 404 and un-stored its part, and every completion
      // after it was refused for that missing chunk.
      let afterJoin: (() => Promise<void>) | null = null;
      const other = await createTestContext(
        {},
        {},
        {
          chunkSize: SMALL,
          wrapStorage: (storage) => ({
            ...storage,
            completeMultipart: async (multipartId, key, parts, totalSize) => {
              await storage.completeMultipart(multipartId, key, parts, totalSize);
              const then = afterJoin;
              afterJoin = null;
              await then?.();
            },
          }),
        },
      );
      const slugs = other.handle.db.schema;
      try {
        const { user, auth } = await signIn(other);
        const data = crypto.randomBytes(SMALL * 2 + 3);
        const uploadId = await startChunked(other, auth, data, SMALL);
        await sendAll(other, auth, uploadId, data, SMALL);

        afterJoin =
          where === 'record'
            ? async () => void (await slugs.alterTable('slugs').renameTo('slugs_away').execute())
            : () => Promise.reject(new Error('socket hang up'));
        const failed = await completeChunked(other, auth, uploadId);
        if (where === 'record') await slugs.alterTable('slugs_away').renameTo('slugs').execute();
        expect(failed.statusCode).toBe(500);
        expect(await sessionRow(other, uploadId)).toMatchObject({
          status: 'completing',
          claim: null,
        });

        const resent = await sendChunk(other, auth, uploadId, 1, sliceOf(data, 1, SMALL));
        expect(resent.statusCode).toBe(409);
        expect(resent.json().message).toBe('Upload is already being completed');
        const status = await chunkStatus(other, auth, uploadId);
        expect(status.json().receivedChunks).toEqual([0, 1, 2]);

        // Taken over at once: no wait for the old claim to go stale.
        const res = await completeChunked(other, auth, uploadId);
        expect(res.statusCode, res.body).toBe(201);
        const upload = res.json().upload;
        const download = await other.app.inject({ method: 'GET', url: `/${upload.shortCode}` });
        expect(download.rawPayload.equals(data)).toBe(true);
        expect(await diskUsedOf(other, user.id)).toBe(data.length);
        expect(await uploadIdsOf(other, user.id)).toEqual([upload.id]);
      } finally {
        await other.close();
      }
    },
  );
});

describe('a completion told the parts are gone after its claim was taken over', () => {
  it('answers the upload the completion that took over made, and deletes nothing', async () => {
    let made: { id: string } | null = null;
    const other = await createTestContext(
      {},
      {},
      {
        chunkSize: SMALL,
        wrapStorage: (storage) => ({
          ...storage,
          completeMultipart: async () => {
            // Meanwhile another completion took the claim over and made the upload.
            await other.handle.db
              .updateTable('chunked_uploads')
              .set({ status: 'completed', claim: 'other', upload_id: made!.id })
              .execute();
            throw Object.assign(new Error('multipart upload not found'), { code: 'ENOENT' });
          },
        }),
      },
    );
    try {
      const { auth } = await signIn(other);
      const data = crypto.randomBytes(SMALL + 1);
      const uploadId = await startChunked(other, auth, data, SMALL);
      await sendAll(other, auth, uploadId, data, SMALL);
      const simple = await uploadFile(other, auth, { filename: 'made.bin', data });
      made = simple.json().upload;

      const res = await completeChunked(other, auth, uploadId);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().upload.id).toBe(made!.id);
      expect(await sessionRow(other, uploadId)).toMatchObject({ status: 'completed' });
    } finally {
      await other.close();
    }
  });
});

describe('aborting a session whose completion failed', () => {
  it('is allowed once the claim is given up, and leaves no upload and no charge', async () => {
    // Before, the session stayed completing and abort answered 409 until it expired.
    const { user, auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2 + 3);
    const uploadId = await filled(auth, data);
    const schema = ctx.handle.db.schema;
    await schema.alterTable('slugs').renameTo('slugs_away').execute();
    let failed;
    try {
      failed = await completeChunked(ctx, auth, uploadId);
    } finally {
      await schema.alterTable('slugs_away').renameTo('slugs').execute();
    }
    expect(failed.statusCode).toBe(500);

    const aborted = await abortChunked(ctx, auth, uploadId);
    expect(aborted.statusCode, aborted.body).toBe(204);
    expect(await sessionRow(ctx, uploadId)).toBeUndefined();
    expect((await chunkStatus(ctx, auth, uploadId)).statusCode).toBe(404);
    expect(await uploadIdsOf(ctx, user.id)).toEqual([]);
    expect(await diskUsedOf(ctx, user.id)).toBe(0);
  });

  it('is refused while a completion holds a fresh claim', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL + 1);
    const uploadId = await filled(auth, data);
    await claimedBy(ctx, uploadId, 'x');
    const res = await abortChunked(ctx, auth, uploadId);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Upload is already being completed');
    expect(await sessionRow(ctx, uploadId)).toMatchObject({ status: 'completing', claim: 'x' });
  });
});

describe('a completion whose parts the store no longer has', () => {
  it('keeps the session while the store itself is not in working order (a volume gone)', async () => {
    const { user, auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2 + 3);
    const uploadId = await filled(auth, data);
    const { multipart_id } = (await sessionRow(ctx, uploadId))!;
    const folder = path.dirname(multipartFile(ctx, multipart_id));
    fs.renameSync(folder, `${folder}-away`);
    let failed;
    try {
      failed = await completeChunked(ctx, auth, uploadId);
    } finally {
      fs.renameSync(`${folder}-away`, folder);
    }
    expect(failed.statusCode).toBe(500);
    expect(await sessionRow(ctx, uploadId)).toMatchObject({ status: 'completing', claim: null });

    const res = await completeChunked(ctx, auth, uploadId);
    expect(res.statusCode, res.body).toBe(201);
    expect((await served(res.json().upload.shortCode)).equals(data)).toBe(true);
    expect(await diskUsedOf(ctx, user.id)).toBe(data.length);
  });

  it('answers 404 expired and ends the session, charging nothing', async () => {
    // As when an S3 bucket's lifecycle rule aborted the multipart upload. Before: a 500 on
    // every completion until the session expired.
    const { user, auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2 + 3);
    const uploadId = await filled(auth, data);
    const { multipart_id } = (await sessionRow(ctx, uploadId))!;
    fs.rmSync(multipartFile(ctx, multipart_id));

    const res = await completeChunked(ctx, auth, uploadId);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Upload session expired; start the upload again');
    expect(await sessionRow(ctx, uploadId)).toBeUndefined();
    expect(await uploadIdsOf(ctx, user.id)).toEqual([]);
    expect(await diskUsedOf(ctx, user.id)).toBe(0);
    expect((await completeChunked(ctx, auth, uploadId)).statusCode).toBe(404);
  });
});

describe('what a client sends', () => {
  it('refuses chunk indexes that are not plain decimal numbers, storing nothing', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL * 2);
    const uploadId = await startChunked(ctx, auth, data, SMALL);
    const session = (await sessionRow(ctx, uploadId))!;
    for (const index of ['', ' ', '0x0', '1e0', '-1', '01', '1.0', '+1']) {
      const res = await sendChunk(ctx, auth, uploadId, index, sliceOf(data, 0, SMALL));
      expect(res.statusCode, `chunkIndex ${JSON.stringify(index)}`).toBe(400);
    }
    // The same in the query string, when the form has no chunkIndex.
    for (const index of ['0x0', '1e0', '-1', '01']) {
      const body = multipart(
        { uploadId },
        { field: 'chunk', filename: 'b', data: sliceOf(data, 0, SMALL) },
      );
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/chunked-upload/chunk?chunkIndex=${encodeURIComponent(index)}`,
        headers: { ...auth, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, `chunkIndex ${JSON.stringify(index)} in the query`).toBe(400);
    }
    expect(await partRows(ctx, uploadId)).toEqual([]);
    expect((await chunkStatus(ctx, auth, uploadId)).json().receivedChunks).toEqual([]);
    expect(fs.statSync(multipartFile(ctx, session.multipart_id)).size).toBe(0);
    // A plain index still works.
    expect((await sendChunk(ctx, auth, uploadId, '1', sliceOf(data, 1, SMALL))).statusCode).toBe(
      204,
    );
  });

  it('stores a type that is not one type/subtype as a guess from the name, and refuses CRLF', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(100);
    const cases: [string, string][] = [
      ['drawing', 'application/octet-stream'],
      ['drawing.png', 'image/png'],
    ];
    for (const [filename, expected] of cases) {
      const uploadId = await startChunked(ctx, auth, data, SMALL, {
        filename,
        mimeType: 'image/png,image/svg+xml',
      });
      expect((await sessionRow(ctx, uploadId))?.mime_type).toBe(expected);
      await sendAll(ctx, auth, uploadId, data, SMALL);
      const done = await completeChunked(ctx, auth, uploadId);
      expect(done.json().upload.mimeType).toBe(expected);
      const file = await ctx.app.inject({ method: 'GET', url: `/${done.json().upload.shortCode}` });
      expect(file.headers['content-type']).toBe(expected);
    }

    const injected = await initChunked(ctx, auth, {
      filename: 'a.txt',
      mimeType: 'text/plain\r\nx-injected: 1',
      totalSize: 100,
      totalChunks: 1,
    });
    expect(injected.statusCode).toBe(400);
  });

  it('cuts a long filename to 255 units without halving an emoji', async () => {
    // 300 emoji are 600 UTF-16 units: the cut at 255 used to keep the first half of the 128th.
    const { auth } = await signIn(ctx);
    const uploadId = await startChunked(ctx, auth, crypto.randomBytes(10), SMALL, {
      filename: '\u{1F4A9}'.repeat(300),
    });
    const filename = (await chunkStatus(ctx, auth, uploadId)).json().filename as string;
    expect(filename).toBe('\u{1F4A9}'.repeat(127));
  });

  it('drops a right-to-left override from the filename', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(100);
    const uploadId = await startChunked(ctx, auth, data, SMALL, {
      filename: 'invoice\u202Efdp.exe',
    });
    expect((await chunkStatus(ctx, auth, uploadId)).json().filename).toBe('invoicefdp.exe');
    await sendAll(ctx, auth, uploadId, data, SMALL);
    const done = await completeChunked(ctx, auth, uploadId);
    expect(done.json().upload.originalFilename).toBe('invoicefdp.exe');
  });
});

describe('abort and expiry', () => {
  it('refuses to abort a completed session', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL + 1);
    const uploadId = await filled(auth, data);
    const done = await completeChunked(ctx, auth, uploadId);
    expect(done.statusCode).toBe(201);
    const res = await abortChunked(ctx, auth, uploadId);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Upload is already complete');
    expect((await served(done.json().upload.shortCode)).equals(data)).toBe(true);
  });

  // Last in the file: it moves the clock a day on.
  it("sweeps an expired completed session's row but not its upload, and an open one's bytes", async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL + 1);
    const completedId = await filled(auth, data);
    const done = await completeChunked(ctx, auth, completedId);
    expect(done.statusCode).toBe(201);
    const upload = done.json().upload;
    const openId = await startChunked(ctx, auth, data, SMALL);
    await sendChunk(ctx, auth, openId, 0, sliceOf(data, 0, SMALL));
    const open = (await sessionRow(ctx, openId))!;
    const completedRow = (await sessionRow(ctx, completedId))!;
    expect(fs.existsSync(multipartFile(ctx, open.multipart_id))).toBe(true);
    // One being completed right now, its claim fresh at the sweep: it is left to finish.
    const busyId = await filled(auth, data);

    ctx.clock.advance(SESSION_TTL_MS + 1000);
    await ctx.handle.db
      .updateTable('chunked_uploads')
      .set({ status: 'completing', claim: 'live', claimed_at: ctx.clock.now().toISOString() })
      .where('id', '=', busyId)
      .execute();
    expect(await ctx.modules.chunkedUploads.service.sweepExpired()).toBeGreaterThanOrEqual(2);
    const busy = (await sessionRow(ctx, busyId))!;
    expect(busy.status).toBe('completing');
    expect(fs.existsSync(multipartFile(ctx, busy.multipart_id))).toBe(true);

    expect(await sessionRow(ctx, completedId)).toBeUndefined();
    expect(await sessionRow(ctx, openId)).toBeUndefined();
    expect(await partRows(ctx, openId)).toEqual([]);
    expect(fs.existsSync(multipartFile(ctx, open.multipart_id))).toBe(false);
    const stored = path.join(ctx.dataDir, 'files', completedRow.storage_key);
    expect(filesUnder(path.join(ctx.dataDir, 'files'))).toContain(stored);
    expect((await served(upload.shortCode)).equals(data)).toBe(true);
  });
});

describe('the orphan sweep and a completed session', () => {
  it('reclaims the bytes of a deleted upload whose session is still kept', async () => {
    // As a crash between a delete's commit and the removal of its bytes leaves them. Before,
    // the completed session (kept 24 hours) counted as using them: a day more on disk.
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL + 1);
    const uploadId = await filled(auth, data);
    const done = await completeChunked(ctx, auth, uploadId);
    expect(done.statusCode).toBe(201);
    const { storage_key } = (await sessionRow(ctx, uploadId))!;
    await ctx.handle.db.deleteFrom('uploads').where('id', '=', done.json().upload.id).execute();
    expect(await sessionRow(ctx, uploadId)).toMatchObject({ status: 'completed' });

    const swept = await ctx.modules.uploads.sweepOrphans(-1000);
    expect(swept.objects).toContain(storage_key);
  });

  it('leaves the bytes of a session whose completion has not recorded its upload yet', async () => {
    const { auth } = await signIn(ctx);
    const data = crypto.randomBytes(SMALL + 1);
    const uploadId = await filled(auth, data);
    const done = await completeChunked(ctx, auth, uploadId);
    const { storage_key } = (await sessionRow(ctx, uploadId))!;
    // Joined, the row not yet written: the session still completing.
    await ctx.handle.db.deleteFrom('uploads').where('id', '=', done.json().upload.id).execute();
    await ctx.handle.db
      .updateTable('chunked_uploads')
      .set({ status: 'completing', upload_id: null })
      .where('id', '=', uploadId)
      .execute();

    const swept = await ctx.modules.uploads.sweepOrphans(-1000);
    expect(swept.objects).not.toContain(storage_key);
  });
});

describe('the expiry sweep and a completion claimed after the sweep read its batch', () => {
  it('spares the session the completion claimed: its row and its parts stay', async () => {
    // The first session's bytes being aborted is the moment between the sweep reading its
    // batch and removing the next one: a completion claims that one then.
    let onAbort = async () => {};
    const own = await createTestContext(
      {},
      {},
      {
        chunkSize: SMALL,
        wrapStorage: (storage) => ({
          ...storage,
          abortMultipart: async (id, key) => {
            await storage.abortMultipart(id, key);
            await onAbort();
          },
        }),
      },
    );
    try {
      const { auth } = await signIn(own);
      const data = crypto.randomBytes(SMALL + 1);
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const id = await startChunked(own, auth, data, SMALL);
        await sendChunk(own, auth, id, 0, sliceOf(data, 0, SMALL));
        ids.push(id);
      }
      own.clock.advance(SESSION_TTL_MS + 1000);
      let claimed: string | null = null;
      onAbort = async () => {
        if (claimed) return;
        for (const id of ids) {
          if (!(await sessionRow(own, id))) continue;
          claimed = id;
          await own.handle.db
            .updateTable('chunked_uploads')
            .set({ status: 'completing', claim: 'live', claimed_at: own.clock.now().toISOString() })
            .where('id', '=', id)
            .execute();
        }
      };
      expect(await own.modules.chunkedUploads.service.sweepExpired()).toBe(1);
      expect(claimed).not.toBeNull();
      const spared = (await sessionRow(own, claimed!))!;
      expect(spared).toMatchObject({ status: 'completing', claim: 'live' });
      expect(fs.existsSync(multipartFile(own, spared.multipart_id))).toBe(true);
      expect(await partRows(own, claimed!)).toHaveLength(1);
    } finally {
      await own.close();
    }
  });
});
