/**
 * A thumbnail's own state (none, pending, ready, failed), what the listing says about it, and
 * what is left behind when making one goes wrong.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Storage } from '../../storage/storage.ts';
import { createTestContext, filesUnder, type TestContext } from '../../../test/context.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

/** Thumbnail writes wait while `hold` is set, to delete an upload meanwhile. */
let hold = false;
/** Reads fail while set: a storage failure, not an unreadable image. */
let failReads = false;
const waiting: (() => void)[] = [];
const held = () => new Promise<void>((resolve) => waiting.push(resolve));

let ctx: TestContext;
let owner: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext(
    {},
    {},
    {
      wrapStorage: (storage: Storage): Storage => ({
        ...storage,
        async get(key, range) {
          if (failReads) throw new Error('the disk is on fire');
          return storage.get(key, range);
        },
        async put(key, body, options) {
          if (hold && key.startsWith('t/')) await held();
          return storage.put(key, body, options);
        },
      }),
    },
  );
  owner = await signIn(ctx);
});
afterAll(() => ctx.close());

const thumbFiles = () => filesUnder(path.join(ctx.dataDir, 'files', 't'));
const statusOf = async (id: string) =>
  await ctx.handle.db
    .selectFrom('uploads')
    .select(['thumbnail_status', 'thumbnail_key'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

async function put(filename: string, contentType: string, data: Buffer) {
  const res = await uploadFile(ctx, owner.auth, { filename, contentType, data });
  expect(res.statusCode).toBe(201);
  return res.json().upload as { id: string; shortCode: string; thumbnailUrl: string | null };
}

const png = () =>
  sharp({ create: { width: 800, height: 400, channels: 3, background: '#2255aa' } })
    .png()
    .toBuffer();

describe('an upload whose thumbnail cannot be made', () => {
  it('is marked failed by its task, offers no thumbnail, and deletes cleanly', async () => {
    const broken = await put('broken.png', 'image/png', Buffer.from('\x89PNG\r\n\x1a\nnot a png'));
    expect(broken.thumbnailUrl).not.toBeNull(); // a PNG may have one, until it is tried
    await ctx.background.drain();
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/thumb/${broken.shortCode}` })).statusCode,
    ).toBe(404);
    expect(await statusOf(broken.id)).toEqual({ thumbnail_status: 'failed', thumbnail_key: null });
    const listed = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${broken.id}`,
      headers: owner.auth,
    });
    expect(listed.json().thumbnailUrl).toBeNull();

    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${broken.id}`,
      headers: owner.auth,
    });
    expect(del.statusCode).toBe(204);
  });

  it('an SVG has none at all, and deletes cleanly', async () => {
    const svg = await put(
      'logo.svg',
      'image/svg+xml',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    );
    expect(svg.thumbnailUrl).toBeNull();
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/thumb/${svg.shortCode}` })).statusCode,
    ).toBe(404);
    expect((await statusOf(svg.id)).thumbnail_status).toBe('none');
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${svg.id}`,
      headers: owner.auth,
    });
    expect(del.statusCode).toBe(204);
  });
});

describe('a thumbnail whose making fails for another reason', () => {
  it('stays pending, and its task records and retries the failure', async () => {
    failReads = true;
    try {
      const up = await put('later.png', 'image/png', await png());
      await vi.waitFor(async () => {
        const task = await ctx.handle.db
          .selectFrom('tasks')
          .select(['attempts', 'last_error'])
          .where('kind', '=', 'upload.thumbnail')
          .where('subject_id', '=', up.id)
          .executeTakeFirst();
        expect(task).toEqual({ attempts: 1, last_error: 'the disk is on fire' });
      });
      expect((await statusOf(up.id)).thumbnail_status).toBe('pending');
    } finally {
      failReads = false;
    }
  });
});

describe('thumbnails made after the upload', () => {
  it('are made by a background task, without anyone asking for one', async () => {
    const before = thumbFiles().length;
    const up = await put('photo.png', 'image/png', await png());
    await vi.waitFor(async () => expect((await statusOf(up.id)).thumbnail_status).toBe('ready'));
    expect(thumbFiles()).toHaveLength(before + 1);
    const res = await ctx.app.inject({ method: 'GET', url: `/thumb/${up.shortCode}` });
    expect(res.statusCode).toBe(200);
    expect(thumbFiles()).toHaveLength(before + 1); // the same one, not a second
  });

  it('a thumbnail finished after its upload was deleted is removed, not left behind', async () => {
    await ctx.background.drain();
    const before = thumbFiles().length;
    hold = true;
    const up = await put('going.png', 'image/png', await png());
    // The background task makes it and is held at the write.
    await vi.waitFor(() => expect(waiting.length).toBe(1));
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${up.id}`,
      headers: owner.auth,
    });
    expect(del.statusCode).toBe(204);
    hold = false;
    for (const go of waiting.splice(0)) go();
    await ctx.background.drain();
    await vi.waitFor(() => expect(thumbFiles()).toHaveLength(before));
  });

  it('a request for one not made yet answers 404 and makes none', async () => {
    await ctx.background.drain();
    const before = thumbFiles().length;
    hold = true;
    try {
      const up = await put('soon.png', 'image/png', await png());
      await vi.waitFor(() => expect(waiting.length).toBe(1));
      const early = await ctx.app.inject({ method: 'GET', url: `/thumb/${up.shortCode}` });
      expect(early.statusCode).toBe(404);
      // Only the background task's write waits: the request started no work of its own.
      expect(waiting.length).toBe(1);
      hold = false;
      for (const go of waiting.splice(0)) go();
      await ctx.background.drain();
      expect((await statusOf(up.id)).thumbnail_status).toBe('ready');
      const made = await ctx.app.inject({ method: 'GET', url: `/thumb/${up.shortCode}` });
      expect(made.statusCode).toBe(200);
      expect(thumbFiles()).toHaveLength(before + 1);
    } finally {
      hold = false;
      for (const go of waiting.splice(0)) go();
    }
  });
});

describe('the orphan sweep', () => {
  it('removes stale temporary files and thumbnails without an upload, and says which', async () => {
    const { Readable } = await import('node:stream');
    const storage = (await import('../../storage/local.ts')).createLocalStorage(ctx.dataDir);
    await storage.put(
      't/aa/bb/aabbccddeeff00112233445566778899',
      Readable.from([Buffer.from('webp')]),
    );
    const part = path.join(ctx.dataDir, 'tmp', '0123456789abcdef0123456789abcdef.part');
    fs.writeFileSync(part, 'half an upload');
    const fresh = path.join(ctx.dataDir, 'tmp', 'fedcba9876543210fedcba9876543210.part');
    fs.writeFileSync(fresh, 'an upload in flight');
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(part, old, old);
    fs.utimesSync(
      path.join(ctx.dataDir, 'files', 't/aa/bb/aabbccddeeff00112233445566778899'),
      old,
      old,
    );

    const swept = await ctx.modules.uploads.sweepOrphans();
    expect(swept.objects).toEqual(['t/aa/bb/aabbccddeeff00112233445566778899']);
    expect(swept.temporary).toEqual(['0123456789abcdef0123456789abcdef.part']);
    expect(fs.existsSync(part)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true); // touched within the grace period: in flight
  });
});
