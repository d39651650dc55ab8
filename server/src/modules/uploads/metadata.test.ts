/**
 * Pictures lose their private metadata on the way in (the stripMetadata preference, on by
 * default): GPS position, camera, serial number, XMP and IPTC go; the colour profile, the
 * orientation and every pixel stay. The stored size, the digest and the quota charge are those
 * of the stripped bytes; with the preference off, the bytes are stored as sent. Simple uploads
 * (the web app's, the scripts' and ShareX's route) and chunked ones alike; a picture that
 * cannot be parsed is stored all the same.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completeChunked,
  sendAll,
  sessionRow,
  startChunked,
} from '../../../test/chunked-uploads.ts';
import { createTestContext, filesUnder, type TestContext } from '../../../test/context.ts';
import {
  EXTENSION,
  expectPlanted,
  expectStripped,
  manySteps,
  photoWithMetadata,
  type PhotoFormat,
} from '../../../test/images.ts';
import { diskUsedOf, uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

const SMALL = 64 * 1024;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, {}, { chunkSize: SMALL });
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;
type UploadJson = { id: string; shortCode: string; size: number; mimeType: string };
const FORMATS: PhotoFormat[] = ['jpeg', 'png', 'webp', 'avif'];
const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

async function served(up: UploadJson): Promise<Buffer> {
  const res = await ctx.app.inject({ method: 'GET', url: `/${up.shortCode}` });
  expect(res.statusCode).toBe(200);
  expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  return res.rawPayload;
}

async function put(auth: Auth, format: PhotoFormat, data: Buffer): Promise<UploadJson> {
  const file = { filename: `photo.${EXTENSION[format]}`, contentType: `image/${format}`, data };
  const res = await uploadFile(ctx, auth, file);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ upload: UploadJson }>().upload;
}

/** The stored row's size and digest are those of the served bytes, and so is the charge. */
async function expectAccounted(userId: string, up: UploadJson, bytes: Buffer) {
  await ctx.background.drain();
  const row = await ctx.handle.db
    .selectFrom('uploads')
    .select(['size', 'sha256'])
    .where('id', '=', up.id)
    .executeTakeFirstOrThrow();
  expect(up.size).toBe(bytes.length);
  expect(Number(row.size)).toBe(bytes.length);
  expect(row.sha256).toBe(sha256(bytes));
  expect(bytes.length).toBeGreaterThan(4096); // past the smallest charge
  expect(await diskUsedOf(ctx, userId)).toBe(bytes.length);
}

async function setStrip(auth: Auth, stripMetadata: boolean) {
  const res = await ctx.app.inject({
    method: 'PATCH',
    url: '/api/preferences',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ stripMetadata }),
  });
  expect(res.statusCode).toBe(200);
}

describe('POST /api/upload of a picture with metadata', () => {
  it.each(FORMATS)('strips a %s, keeping its colour profile and orientation', async (format) => {
    const { user, auth } = await signIn(ctx);
    const photo = await photoWithMetadata(format);
    await expectPlanted(photo, format);
    const up = await put(auth, format, photo);
    expect(up.mimeType).toBe(`image/${format}`);
    const bytes = await served(up);
    await expectStripped(bytes, photo, format);
    // JPEG and PNG drop the blocks; WebP, AVIF and HEIC overwrite them in place.
    if (format === 'jpeg' || format === 'png') expect(bytes.length).toBeLessThan(photo.length);
    else expect(bytes.length).toBe(photo.length);
    await expectAccounted(user.id, up, bytes);
  });

  it.each(FORMATS)('stores a %s as sent with stripMetadata off', async (format) => {
    const { user, auth } = await signIn(ctx);
    await setStrip(auth, false);
    const photo = await photoWithMetadata(format);
    const up = await put(auth, format, photo);
    const bytes = await served(up);
    expect(bytes.equals(photo)).toBe(true);
    await expectAccounted(user.id, up, bytes);
  });

  it('strips by what the bytes are, whatever the name or the claimed picture type', async () => {
    const { auth } = await signIn(ctx);
    const photo = await photoWithMetadata('jpeg');
    const res = await uploadFile(ctx, auth, {
      filename: 'shot.png',
      contentType: 'image/png',
      data: photo,
    });
    expect(res.statusCode).toBe(201);
    await expectStripped(await served(res.json().upload), photo, 'jpeg');
  });

  it('leaves what is not a picture alone, even when it looks like one', async () => {
    const { auth } = await signIn(ctx);
    const photo = await photoWithMetadata('jpeg');
    const res = await uploadFile(ctx, auth, {
      filename: 'photo.bin',
      contentType: 'application/octet-stream',
      data: photo,
    });
    expect(res.statusCode).toBe(201);
    expect((await served(res.json().upload)).equals(photo)).toBe(true);
  });

  it('stores a picture it cannot parse as it came, from where it stops making sense', async () => {
    const { auth } = await signIn(ctx);
    const jpeg = await photoWithMetadata('jpeg');
    const png = await photoWithMetadata('png');
    const cases: [string, Buffer][] = [
      // An Exif segment whose length runs past the end of the file.
      ['cut.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff]), jpeg])],
      // No marker where a segment should start.
      ['odd.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0, 2, 0x12]), jpeg])],
      // A chunk longer than PNG allows.
      ['huge.png', Buffer.concat([png.subarray(0, 8), Buffer.from([0xff, 0xff, 0xff, 0xff])])],
      // An Exif segment of a JPEG sent alone.
      ['alone.jpg', jpeg.subarray(0, 40)],
      // An EXIF chunk past the end of the file, a meta box cut short.
      ['riff.webp', Buffer.from('RIFF\x10\x00\x00\x00WEBPEXIF\xff\xff\xff\x7f', 'latin1')],
      [
        'box.avif',
        Buffer.from(
          '\x00\x00\x00\x18ftypavif\x00\x00\x00\x00avifmif1\x00\x00\x10\x00meta\x00\x00\x00\x00',
          'latin1',
        ),
      ],
    ];
    for (const [filename, data] of cases) {
      const res = await uploadFile(ctx, auth, { filename, data });
      expect(res.statusCode, filename).toBe(201);
      expect((await served(res.json().upload)).equals(data), filename).toBe(true);
    }

    // Cut short in its eXIf chunk: what came before it is stripped, the rest kept as it came.
    const exifAt = png.indexOf('eXIf') - 4;
    const cut = png.subarray(0, exifAt + 14);
    const res = await uploadFile(ctx, auth, { filename: 'short.png', data: cut });
    expect(res.statusCode).toBe(201);
    const bytes = await served(res.json().upload);
    expect(bytes.subarray(-14).equals(cut.subarray(exifAt))).toBe(true);
    expect(bytes.length).toBeLessThan(cut.length);
  });
});

describe('POST /api/upload of a picture costly to read', () => {
  // lib/metadata/costs.test.ts counts what they cost; here they are stored as they came.
  it('stores fill bytes, restart markers and thousands of tiny chunks or boxes as sent', async () => {
    const { auth } = await signIn(ctx);
    const restarts = Buffer.alloc(1024 * 1024);
    for (let at = 0; at < restarts.length; at += 2) restarts.set([0xff, 0xd0], at);
    const cases: [string, Buffer][] = [
      ['fill.jpg', Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(3 * 1024 * 1024, 0xff)])],
      ['restart.jpg', Buffer.concat([Buffer.from([0xff, 0xd8]), restarts])],
      ['chunks.png', await manySteps('png', 20_000)],
      ['boxes.avif', await manySteps('avif', 20_000)],
    ];
    for (const [filename, data] of cases) {
      const res = await uploadFile(ctx, auth, { filename, data });
      expect(res.statusCode, filename).toBe(201);
      expect((await served(res.json().upload)).equals(data), filename).toBe(true);
    }
  });
});

/** A chunked upload of `data`, completed; answers the upload and where its parts were joined. */
async function putChunked(auth: Auth, filename: string, data: Buffer) {
  const id = await startChunked(ctx, auth, data, SMALL, { filename, mimeType: '' });
  const joinedKey = (await sessionRow(ctx, id))!.storage_key;
  await sendAll(ctx, auth, id, data, SMALL);
  const done = await completeChunked(ctx, auth, id);
  expect(done.statusCode, done.body).toBe(201);
  const up = done.json<{ upload: UploadJson }>().upload;
  const row = await ctx.handle.db
    .selectFrom('uploads')
    .select('storage_key')
    .where('id', '=', up.id)
    .executeTakeFirstOrThrow();
  return { up, joinedKey, storageKey: row.storage_key };
}

const joinedExists = (key: string) => fs.existsSync(path.join(ctx.dataDir, 'files', key));

describe('a chunked upload of a picture', () => {
  const noisy = (width: number) =>
    sharp({
      create: {
        width,
        height: width,
        channels: 3,
        background: '#888',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    });

  it('keeps its joined bytes, not copied, when there is nothing to strip', async () => {
    const { auth } = await signIn(ctx);
    // A copy of a stripped photo has nothing left to strip either.
    const stripped = await served(await put(auth, 'jpeg', await photoWithMetadata('jpeg', 500)));
    const cases: [string, Buffer][] = [
      ['plain.gif', await noisy(300).gif().toBuffer()],
      ['plain.tiff', await noisy(200).tiff({ compression: 'none' }).toBuffer()],
      ['plain.jpg', await noisy(500).jpeg().toBuffer()],
      ['plain.png', await noisy(200).png().toBuffer()],
      ['plain.webp', await noisy(500).webp().toBuffer()],
      ['plain.avif', await noisy(300).avif().toBuffer()],
      ['stripped.jpg', stripped],
    ];
    for (const [filename, data] of cases) {
      expect(data.length, filename).toBeGreaterThan(SMALL); // two chunks or more
      const { up, joinedKey, storageKey } = await putChunked(auth, filename, data);
      expect(storageKey, filename).toBe(joinedKey);
      expect((await served(up)).equals(data), filename).toBe(true);
    }
  });

  it('is stripped when its metadata lies past the first MiB (a WebP keeps it last)', async () => {
    const { user, auth } = await signIn(ctx);
    const photo = await photoWithMetadata('webp', 2000);
    expect(photo.length).toBeGreaterThan(1024 * 1024);
    const { up, joinedKey, storageKey } = await putChunked(auth, 'large.webp', photo);
    expect(storageKey).not.toBe(joinedKey);
    const bytes = await served(up);
    await expectStripped(bytes, photo, 'webp');
    await expectAccounted(user.id, up, bytes);
    expect(joinedExists(joinedKey)).toBe(false);
  });
});

describe('a chunked upload of a picture with metadata', () => {
  it('is stripped once joined: size, digest and charge follow, the joined bytes go', async () => {
    const { user, auth } = await signIn(ctx);
    const photo = await photoWithMetadata('jpeg', 800);
    expect(photo.length).toBeGreaterThan(2 * SMALL); // three chunks
    const id = await startChunked(ctx, auth, photo, SMALL, {
      filename: 'big.jpg',
      mimeType: 'image/jpeg',
    });
    const joinedKey = (await sessionRow(ctx, id))!.storage_key;
    await sendAll(ctx, auth, id, photo, SMALL);
    const done = await completeChunked(ctx, auth, id);
    expect(done.statusCode, done.body).toBe(201);
    const up = done.json<{ upload: UploadJson }>().upload;
    const bytes = await served(up);
    await expectStripped(bytes, photo, 'jpeg');
    await expectAccounted(user.id, up, bytes);
    expect(joinedExists(joinedKey)).toBe(false);

    // Completing again answers the same upload.
    const again = await completeChunked(ctx, auth, id);
    expect(again.json().upload.id).toBe(up.id);
    expect((await served(up)).equals(bytes)).toBe(true);
  });

  it('keeps one copy when completed again before its session was marked', async () => {
    const { auth } = await signIn(ctx);
    const photo = await photoWithMetadata('jpeg', 800);
    const id = await startChunked(ctx, auth, photo, SMALL, { filename: 'big.jpg', mimeType: '' });
    const joinedKey = (await sessionRow(ctx, id))!.storage_key;
    await sendAll(ctx, auth, id, photo, SMALL);
    const parts = await ctx.handle.db
      .selectFrom('chunked_upload_parts')
      .selectAll()
      .where('upload_id', '=', id)
      .execute();
    const first = await completeChunked(ctx, auth, id);
    expect(first.statusCode, first.body).toBe(201);
    const up = first.json<{ upload: UploadJson }>().upload;
    const bytes = await served(up);
    // As if marking the session had failed: it stays open with its parts' rows, and its
    // joined bytes are kept.
    const joined = path.join(ctx.dataDir, 'files', joinedKey);
    fs.mkdirSync(path.dirname(joined), { recursive: true });
    fs.writeFileSync(joined, photo);
    await ctx.handle.db.insertInto('chunked_upload_parts').values(parts).execute();
    await ctx.handle.db
      .updateTable('chunked_uploads')
      .set({ status: 'open', upload_id: null, claim: null, claimed_at: null })
      .where('id', '=', id)
      .execute();
    await ctx.background.drain(); // its thumbnail made
    const files = path.join(ctx.dataDir, 'files');
    const before = filesUnder(files);

    // Stripped again, recorded as the upload that exists: the second copy goes, and so do the
    // joined bytes once the session is marked.
    const again = await completeChunked(ctx, auth, id);
    expect(again.json<{ upload: UploadJson }>().upload.id).toBe(up.id);
    expect((await served(up)).equals(bytes)).toBe(true);
    expect(joinedExists(joinedKey)).toBe(false);
    expect(filesUnder(files)).toEqual(before.filter((file) => !joined.endsWith(file)));
  });

  it('leaves none of its bytes when the quota refuses it', async () => {
    const { user, auth } = await signIn(ctx);
    const photo = await photoWithMetadata('jpeg', 800);
    const id = await startChunked(ctx, auth, photo, SMALL, { filename: 'big.jpg', mimeType: '' });
    const joinedKey = (await sessionRow(ctx, id))!.storage_key;
    await sendAll(ctx, auth, id, photo, SMALL);
    // Meanwhile the quota shrinks (another upload, or an admin).
    await ctx.handle.db
      .updateTable('users')
      .set({ disk_quota: SMALL })
      .where('id', '=', user.id)
      .execute();
    const files = path.join(ctx.dataDir, 'files');
    const before = filesUnder(files);
    const done = await completeChunked(ctx, auth, id);
    expect(done.statusCode, done.body).toBe(413);
    // Neither the joined bytes nor their stripped copy.
    expect(joinedExists(joinedKey)).toBe(false);
    expect(filesUnder(files)).toEqual(before);
    expect(await sessionRow(ctx, id)).toBeUndefined();
  });

  it('is stored as sent with stripMetadata off', async () => {
    const { user, auth } = await signIn(ctx);
    await setStrip(auth, false);
    const photo = await photoWithMetadata('webp', 640);
    const id = await startChunked(ctx, auth, photo, SMALL, {
      filename: 'big.webp',
      mimeType: 'image/webp',
    });
    await sendAll(ctx, auth, id, photo, SMALL);
    const done = await completeChunked(ctx, auth, id);
    expect(done.statusCode, done.body).toBe(201);
    const up = done.json<{ upload: UploadJson }>().upload;
    expect((await served(up)).equals(photo)).toBe(true);
    await expectAccounted(user.id, up, photo);
  });
});
