import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { signIn } from '../../../test/users.ts';
import { withForgedSignature } from '../../../test/links.ts';
import { hlsPlaylist, testVideo, uploadFile } from '../../../test/uploads.ts';
import { FILE_CSP, MEDIA_CSP } from './content-policy.ts';
import { ffmpegAvailable } from '../uploads/index.ts';

let ctx: TestContext;
let owner: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signIn(ctx);
});
afterAll(() => ctx.close());

type UploadJson = { id: string; shortCode: string; views: number; thumbnailUrl: string };

async function put(filename: string, contentType: string, data: Buffer, isPublic = true) {
  const res = await uploadFile(
    ctx,
    owner.auth,
    { filename, contentType, data },
    { isPublic: String(isPublic) },
  );
  expect(res.statusCode).toBe(201);
  // Thumbnails are made by the background runner, after the upload.
  await ctx.background.drain();
  return res.json().upload as UploadJson;
}
const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  ctx.app.inject({ method, url, headers });
/** Where an upload's bytes are on disk. */
const storedPath = async (id: string) =>
  path.join(
    ctx.dataDir,
    'files',
    (
      await ctx.handle.db
        .selectFrom('uploads')
        .select('storage_key')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).storage_key,
  );
/** The upload's committed views, after committing every view counted so far. */
const views = async (id: string) => {
  await ctx.modules.links.service.flushViews();
  return Number(
    (
      await ctx.handle.db
        .selectFrom('uploads')
        .select('views')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).views,
  );
};

describe('GET /{code}', () => {
  const data = crypto.randomBytes(10_000);
  let up: UploadJson;
  beforeAll(async () => {
    up = await put('video clip.mp4', 'video/mp4', data);
  });

  it('streams the whole file with its headers', async () => {
    const res = await get(`/${up.shortCode}`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(data)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'video/mp4',
      'content-length': '10000',
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
      // A video keeps its origin in the sandbox, so the browser's player can fetch its ranges.
      'content-security-policy': MEDIA_CSP,
      'content-disposition': 'inline; filename="video clip.mp4"',
    });
    expect(res.headers.etag).toBe(`"${up.id}"`);
    expect(res.headers['last-modified']).toBeTruthy();
  });

  it('answers a single byte range with 206 and Content-Range', async () => {
    const res = await get(`/${up.shortCode}`, { range: 'bytes=100-199' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 100-199/10000');
    expect(res.headers['content-length']).toBe('100');
    expect(res.rawPayload.equals(data.subarray(100, 200))).toBe(true);

    const suffix = await get(`/${up.shortCode}`, { range: 'bytes=-10' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.rawPayload.equals(data.subarray(9990))).toBe(true);
    const open = await get(`/${up.shortCode}`, { range: 'bytes=9995-' });
    expect(open.headers['content-range']).toBe('bytes 9995-9999/10000');
    expect(open.rawPayload.equals(data.subarray(9995))).toBe(true);
    const one = await get(`/${up.shortCode}`, { range: 'bytes=0-0' });
    expect(one.rawPayload.equals(data.subarray(0, 1))).toBe(true);
  });

  it('answers an unsatisfiable range with 416 and no body', async () => {
    const res = await get(`/${up.shortCode}`, { range: 'bytes=10000-10010' });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */10000');
    expect(res.body).toBe('');
  });

  it('answers 304 to a matching If-None-Match or a recent If-Modified-Since', async () => {
    const first = await get(`/${up.shortCode}`);
    const inm = await get(`/${up.shortCode}`, { 'if-none-match': String(first.headers.etag) });
    expect(inm.statusCode).toBe(304);
    expect(inm.body).toBe('');
    const ims = await get(`/${up.shortCode}`, {
      'if-modified-since': String(first.headers['last-modified']),
    });
    expect(ims.statusCode).toBe(304);
    const stale = await get(`/${up.shortCode}`, { 'if-none-match': '"something-else"' });
    expect(stale.statusCode).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await get(`/${up.shortCode}`, {}, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('10000');
    expect(res.body).toBe('');
  });

  it('counts a view per GET starting at byte 0, not HEAD, 304 or later ranges', async () => {
    const fresh = await put('count.mp4', 'video/mp4', data);
    await get(`/${fresh.shortCode}`); // +1
    await get(`/${fresh.shortCode}`, { range: 'bytes=0-99' }); // +1 (a player's first request)
    await get(`/${fresh.shortCode}`, { range: 'bytes=100-' }); // continuation
    await get(`/${fresh.shortCode}`, {}, 'HEAD');
    const etag = String((await get(`/${fresh.shortCode}`, {}, 'HEAD')).headers.etag);
    await get(`/${fresh.shortCode}`, { 'if-none-match': etag });
    await get(`/thumb/${fresh.shortCode}`);
    expect(await views(fresh.id)).toBe(2);
  });

  it('counts every one of many simultaneous views, across several files', async () => {
    const a = await put('a.txt', 'text/plain', data);
    const b = await put('b.txt', 'text/plain', data);
    const gets = [
      ...Array.from({ length: 25 }, () => get(`/${a.shortCode}`)),
      ...Array.from({ length: 7 }, () => get(`/${b.shortCode}`)),
    ];
    const answers = await Promise.all(gets);
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    expect([await views(a.id), await views(b.id)]).toEqual([25, 7]);
  });

  it("finds links case-insensitively and answers unknown ones with the app's 404 page", async () => {
    expect((await get(`/${up.shortCode.toUpperCase()}`)).statusCode).toBe(200);
    const missing = await get('/zzzzzz');
    expect(missing.statusCode).toBe(404);
  });
});

describe('unsafe types', () => {
  it.each([
    ['page.html', 'text/html', '<script>alert(1)</script>'],
    [
      'logo.svg',
      'image/svg+xml',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    ],
    ['feed.xml', 'application/xml', '<x/>'],
    ['app.js', 'text/javascript', 'alert(1)'],
    ['mystery', 'application/x-unknown', 'zz'],
  ])(
    'serves %s as an attachment, with nosniff and the sandbox CSP',
    async (filename, type, body) => {
      const up = await put(filename, type, Buffer.from(body));
      const res = await get(`/${up.shortCode}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename=/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe(FILE_CSP);
    },
  );

  it('never sends a stored type that is not one type/subtype, small or large', async () => {
    for (const size of [1000, 300_000]) {
      const up = await put(`odd-${size}.png`, 'image/png', crypto.randomBytes(size));
      // As a row stored before types were checked on the way in could hold it.
      await ctx.handle.db
        .updateTable('uploads')
        .set({ mime_type: 'image/png,image/svg+xml' })
        .where('id', '=', up.id)
        .execute();
      const res = await get(`/${up.shortCode}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    }
  });

  it('adds a charset to text types and encodes non-ASCII filenames (RFC 5987)', async () => {
    const up = await put('résumé.txt', 'text/plain', Buffer.from('héllo'));
    const res = await get(`/${up.shortCode}`);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `inline; filename="r_sum_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`,
    );
  });
});

describe('private uploads', () => {
  let up: UploadJson;
  beforeAll(async () => {
    up = await put(
      'secret.png',
      'image/png',
      await sharp({ create: { width: 10, height: 10, channels: 3, background: 'red' } })
        .png()
        .toBuffer(),
      false,
    );
  });

  it('are invisible (404) to anonymous visitors and to other users', async () => {
    expect((await get(`/${up.shortCode}`)).statusCode).toBe(404);
    expect((await get(`/thumb/${up.shortCode}`)).statusCode).toBe(404);
    const other = await signIn(ctx);
    expect((await get(`/${up.shortCode}`, other.auth)).statusCode).toBe(404);
    expect((await get(`/api/uploads/${up.id}/access-url`, other.auth)).statusCode).toBe(404);
  });

  it('are served to the owner and to an admin', async () => {
    expect((await get(`/${up.shortCode}`, owner.auth)).statusCode).toBe(200);
    const admin = await signIn(ctx, 'admin');
    expect((await get(`/${up.shortCode}`, admin.auth)).statusCode).toBe(200);
    expect((await get(`/${up.shortCode}`, owner.auth)).headers['cache-control']).toBe(
      'private, no-cache',
    );
  });

  it('open through a short-lived signed link, which cannot be forged or reused after expiry', async () => {
    const res = await get(`/api/uploads/${up.id}/access-url`, owner.auth);
    expect(res.statusCode).toBe(200);
    const { url, thumbnailUrl, expiresAt } = res.json();
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60 * 1000 + 5000);
    const local = (u: string) => u.replace(ctx.config.publicUrl, '');
    expect((await get(local(url))).statusCode).toBe(200);
    expect((await get(local(thumbnailUrl))).statusCode).toBe(200);
    expect((await get(withForgedSignature(local(url)))).statusCode).toBe(404);
    const other = await put('other.png', 'image/png', Buffer.from('x'), false);
    // A signature is bound to its upload.
    const query = local(url).split('?')[1];
    expect((await get(`/${other.shortCode}?${query}`)).statusCode).toBe(404);
    ctx.clock.advance(11 * 60 * 1000);
    expect((await get(local(url))).statusCode).toBe(404);
  });

  it("list private thumbnails with a signed link the owner's grid can load", async () => {
    const list = await get('/api/uploads?search=secret', owner.auth);
    const thumb = list.json().uploads[0].thumbnailUrl.replace(ctx.config.publicUrl, '');
    expect(thumb).toMatch(/\?expires=/);
    expect((await get(thumb)).statusCode).toBe(200);
  });
});

describe('GET /thumb/{code}', () => {
  it('makes a WebP of at most 400 px from a PNG and a JPEG, once', async () => {
    for (const [name, format] of [
      ['big.png', 'png'],
      ['photo.jpg', 'jpeg'],
    ] as const) {
      const image = await sharp({
        create: { width: 1200, height: 600, channels: 3, background: '#3366ff' },
      })
        .toFormat(format)
        .toBuffer();
      const up = await put(name, `image/${format}`, image);
      const res = await get(`/thumb/${up.shortCode}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 400, height: 200 });
      const row = await ctx.handle.db
        .selectFrom('uploads')
        .select('thumbnail_key')
        .where('id', '=', up.id)
        .executeTakeFirstOrThrow();
      expect(row.thumbnail_key).toMatch(/^t\//);
      const again = await get(`/thumb/${up.shortCode}`);
      expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
      expect(
        (await get(`/thumb/${up.shortCode}`, { 'if-none-match': String(res.headers.etag) }))
          .statusCode,
      ).toBe(304);
    }
  });

  it('does not enlarge a small image', async () => {
    const image = await sharp({
      create: { width: 50, height: 30, channels: 4, background: '#000' },
    })
      .png()
      .toBuffer();
    const up = await put('tiny.png', 'image/png', image);
    const meta = await sharp((await get(`/thumb/${up.shortCode}`)).rawPayload).metadata();
    expect(meta).toMatchObject({ width: 50, height: 30 });
  });

  it('answers 404 for a corrupt image and a non-image, and the server keeps running', async () => {
    const corrupt = await put(
      'broken.png',
      'image/png',
      Buffer.from('\x89PNG\r\n\x1a\nthis is not really a png'),
    );
    expect((await get(`/thumb/${corrupt.shortCode}`)).statusCode).toBe(404);
    expect((await get(`/thumb/${corrupt.shortCode}`)).statusCode).toBe(404);
    const text = await put('notes.txt', 'text/plain', Buffer.from('hello'));
    expect((await get(`/thumb/${text.shortCode}`)).statusCode).toBe(404);
    expect((await get('/api/auth/me', owner.auth)).statusCode).toBe(200);
  });

  it.skipIf(!ffmpegAvailable())('grabs a frame of a video with ffmpeg', async () => {
    const up = await put('v.mp4', 'video/mp4', testVideo());
    const res = await get(`/thumb/${up.shortCode}`);
    expect(res.statusCode).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 400,
      height: 225,
    });
  });
});

describe.skipIf(!ffmpegAvailable())('a video that is really a playlist', () => {
  it('gets no thumbnail: ffmpeg never reads the video on the server it names', async () => {
    // A video on the server's disk that is nobody's upload.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-video-'));
    const file = path.join(dir, 'elsewhere.ts');
    fs.writeFileSync(file, testVideo({ seconds: 3, format: 'mpegts' }));
    try {
      // An HLS playlist named and typed as an MP4, whose one segment is that file.
      const up = await put('clip.mp4', 'video/mp4', hlsPlaylist(file));
      expect((await get(`/thumb/${up.shortCode}`)).statusCode).toBe(404);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });
});

describe('a large file over a real connection', () => {
  // Past one read: sent through the recycled buffers of file-pump.ts.
  const data = crypto.randomBytes(3 * 1024 * 1024 + 12_345);
  let up: UploadJson;
  let base: string;
  beforeAll(async () => {
    up = await put('big.bin', 'application/octet-stream', data);
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('sends every byte, whole and in ranges, with the headers', async () => {
    const whole = await fetch(`${base}/${up.shortCode}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(data.length));
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(whole.headers.get('content-disposition')).toBe('attachment; filename="big.bin"');
    expect(Buffer.from(await whole.arrayBuffer()).equals(data)).toBe(true);

    const start = 1024 * 1024 - 7;
    const end = data.length - 100;
    const part = await fetch(`${base}/${up.shortCode}`, {
      headers: { range: `bytes=${start}-${end}` },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${data.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(start, end + 1))).toBe(true);
  });

  it('answers small ranges of it, as a player seeking does, from a single read', async () => {
    const cases: [string, number, number][] = [
      ['bytes=2000000-2000099', 2_000_000, 2_000_099],
      ['bytes=-10', data.length - 10, data.length - 1],
      [`bytes=${data.length - 1}-`, data.length - 1, data.length - 1],
      ['bytes=5-5', 5, 5],
    ];
    for (const [range, first, last] of cases) {
      const res = await fetch(`${base}/${up.shortCode}`, { headers: { range } });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${first}-${last}/${data.length}`);
      expect(res.headers.get('content-length')).toBe(String(last - first + 1));
      expect(Buffer.from(await res.arrayBuffer()).equals(data.subarray(first, last + 1))).toBe(
        true,
      );
    }
  });

  it('survives clients that hang up mid-download', async () => {
    for (let i = 0; i < 5; i++) {
      const controller = new AbortController();
      const res = await fetch(`${base}/${up.shortCode}`, { signal: controller.signal });
      const reader = res.body!.getReader();
      await reader.read();
      controller.abort();
    }
    const res = await fetch(`${base}/${up.shortCode}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
  });

  it('closes every file when a client pipelines two downloads and hangs up', async () => {
    const file = await storedPath(up.id);
    // Descriptors this process holds on the stored file (others, like new database
    // connections, may come and go meanwhile).
    const openOnFile = () =>
      fs.readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`) === file;
        } catch {
          return false;
        }
      }).length;
    const { port } = new URL(base);
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => {
          const get = `GET /${up.shortCode} HTTP/1.1\r\nhost: x\r\n\r\n`;
          socket.write(get + get);
        });
        // Read a little of the first answer, then go away with the second one queued.
        socket.once('data', () => {
          socket.destroy();
          resolve();
        });
        socket.on('error', () => {});
      });
    }
    await vi.waitFor(() => expect(openOnFile()).toBe(0));
  });

  it('cuts the connection when the stored file is shorter than its record', async () => {
    const short = await put('short.bin', 'application/octet-stream', data);
    fs.truncateSync(await storedPath(short.id), 1024 * 1024);
    const res = await fetch(`${base}/${short.shortCode}`);
    expect(res.status).toBe(200);
    // The promised length never arrives: the client sees a broken body, not a short file.
    await expect(res.arrayBuffer()).rejects.toThrow();
    const again = await fetch(`${base}/${up.shortCode}`);
    expect(Buffer.from(await again.arrayBuffer()).equals(data)).toBe(true);
  });

  it('serves an empty file as an empty body', async () => {
    const empty = await put('empty.txt', 'text/plain', Buffer.alloc(0));
    const res = await fetch(`${base}/${empty.shortCode}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('0');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers a small file shorter than its record with a 500 and none of its headers', async () => {
    const small = await put('small.txt', 'text/plain', data.subarray(0, 5000));
    fs.truncateSync(await storedPath(small.id), 4000);
    const res = await fetch(`${base}/${small.shortCode}`);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(((await res.json()) as { error: string }).error).toBe('internal_error');
    expect(await views(small.id)).toBe(0);
  });

  it('answers 404, without the file headers, when the stored bytes are gone', async () => {
    const gone = await put('gone.bin', 'application/octet-stream', data);
    const file = await storedPath(gone.id);
    expect(file).not.toBe(await storedPath(up.id));
    fs.rmSync(file);
    const res = await fetch(`${base}/${gone.shortCode}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(res.headers.get('content-security-policy')).not.toBe(FILE_CSP);
    await res.arrayBuffer();
    expect((await fetch(`${base}/${gone.shortCode}`, { method: 'HEAD' })).status).toBe(404);
    expect(await views(gone.id)).toBe(0);
  });
});

describe('a thumbnail removed between its size check and its read', () => {
  let raced: TestContext;
  beforeAll(async () => {
    // The real storage, except that reading a thumbnail first removes it, as a concurrent
    // delete would.
    raced = await createTestContext(
      {},
      {},
      {
        wrapStorage: (storage) => ({
          ...storage,
          read: async (key, range) => {
            if (key.startsWith('t/')) await storage.delete(key);
            return storage.read(key, range);
          },
        }),
      },
    );
  });
  afterAll(() => raced.close());

  it('answers 404 without the thumbnail headers', async () => {
    const { auth } = await signIn(raced);
    const image = await sharp({
      create: { width: 40, height: 40, channels: 3, background: '#888' },
    })
      .png()
      .toBuffer();
    const res = await uploadFile(raced, auth, { filename: 'p.png', data: image });
    const { shortCode } = (res.json() as { upload: UploadJson }).upload;
    const thumb = await raced.app.inject({ method: 'GET', url: `/thumb/${shortCode}` });
    expect(thumb.statusCode).toBe(404);
    expect(thumb.headers.etag).toBeUndefined();
    expect(thumb.headers['cache-control']).toBeUndefined();
    expect(thumb.headers['content-type']).toMatch(/^application\/json/);
  });
});
