/**
 * Multipart bodies as an attacker or a broken client sends them: cut short, corrupted, with
 * the wrong parts, or abandoned mid-part. Each must end in a 4xx (or a closed connection),
 * leave no temporary file, and leave the process serving.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, filesUnder, type TestContext } from '../../test/context.ts';
import { signIn } from '../../test/users.ts';
import { multipart, uploadIdsOf } from '../../test/uploads.ts';

const CHUNK = 64 * 1024;
let ctx: TestContext;
let owner: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  ctx = await createTestContext({}, {}, { chunkSize: CHUNK });
  owner = await signIn(ctx);
});
afterAll(() => ctx.close());

const tmpFiles = () => filesUnder(path.join(ctx.dataDir, 'tmp')).filter((f) => f.endsWith('.part'));
const storedFiles = () => filesUnder(path.join(ctx.dataDir, 'files'));

async function session(size = CHUNK * 2): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/chunked-upload/init',
    headers: owner.auth,
    payload: {
      filename: 'big.bin',
      mimeType: 'application/octet-stream',
      totalSize: size,
      totalChunks: 2,
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json().uploadId;
}

function post(url: string, contentType: string, payload: Buffer | string) {
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: { ...owner.auth, 'content-type': contentType },
    payload,
  });
}

/** The port the app listens on (it starts listening on first use). */
async function listeningPort(): Promise<number> {
  if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  return (ctx.app.server.address() as net.AddressInfo).port;
}

async function stillServing() {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: owner.auth });
  expect(res.statusCode).toBe(200);
}

describe('a multipart body that ends before its closing boundary', () => {
  const cut =
    '------b\r\nContent-Disposition: form-data; name="file"; filename="x.txt"\r\n\r\npartial';

  it('answers 400 on /api/upload and stores nothing', async () => {
    const res = await post('/api/upload', 'multipart/form-data; boundary=----b', cut);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_error' });
    expect(res.json().message).toMatch(/ended early or is malformed/);
    await stillServing();
    expect(await uploadIdsOf(ctx, owner.user.id)).toEqual([]);
    expect(tmpFiles()).toEqual([]);
  });

  it('answers 400 on /api/chunked-upload/chunk and stores no chunk', async () => {
    const uploadId = await session();
    const body =
      `------b\r\nContent-Disposition: form-data; name="uploadId"\r\n\r\n${uploadId}\r\n` +
      '------b\r\nContent-Disposition: form-data; name="chunkIndex"\r\n\r\n0\r\n' +
      '------b\r\nContent-Disposition: form-data; name="chunk"; filename="c"\r\n\r\npartial';
    const res = await post(
      '/api/chunked-upload/chunk',
      'multipart/form-data; boundary=----b',
      body,
    );
    expect(res.statusCode).toBe(400);
    await stillServing();
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/chunked-upload/${uploadId}`,
      headers: owner.auth,
    });
    expect(status.json().receivedChunks).toEqual([]);
  });

  it('answers 400 to a multipart content type without a boundary', async () => {
    for (const url of ['/api/upload', '/api/chunked-upload/chunk']) {
      const res = await post(url, 'multipart/form-data', cut);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/no boundary/);
    }
  });
});

describe('parts in the wrong place', () => {
  const file = { filename: 'a.txt', contentType: 'text/plain', data: Buffer.from('hello') };

  it('refuses a second file, a field after the file and a file in another field', async () => {
    const boundary = 'xyz';
    const part = (name: string, filename?: string) =>
      `--${boundary}\r\ncontent-disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\nbody\r\n`;
    const cases: [string, string][] = [
      [part('file', 'a.txt') + part('file', 'b.txt'), 'Send one file per request'],
      [part('file', 'a.txt') + part('isPublic'), 'The field "isPublic" must come before the file'],
      [part('other', 'a.txt'), 'Unexpected file field "other": send the file in "file"'],
      [part('isPublic'), 'file is required'],
    ];
    for (const [body, message] of cases) {
      const res = await post(
        '/api/upload',
        `multipart/form-data; boundary=${boundary}`,
        `${body}--${boundary}--\r\n`,
      );
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await uploadIdsOf(ctx, owner.user.id)).toEqual([]);
    expect(tmpFiles()).toEqual([]);
    // A well-formed one still goes through.
    const ok = multipart({ isPublic: 'true' }, file);
    expect((await post('/api/upload', ok.headers['content-type']!, ok.payload)).statusCode).toBe(
      201,
    );
  });

  it('refuses a field longer than allowed before reading the file', async () => {
    const body = multipart({ isPublic: 'x'.repeat(5000) }, file);
    const res = await post('/api/upload', body.headers['content-type']!, body.payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The field "isPublic" is longer than 1024 bytes');
  });
});

describe('hundreds of damaged bodies', () => {
  /** A valid body with a random cut, a flipped byte, a spliced boundary or junk appended. */
  function damage(body: Buffer, rng: () => number): Buffer {
    const at = Math.floor(rng() * body.length);
    switch (Math.floor(rng() * 5)) {
      case 0:
        return body.subarray(0, at);
      case 1: {
        const copy = Buffer.from(body);
        copy[at] = copy[at]! ^ (1 + Math.floor(rng() * 255));
        return copy;
      }
      case 2:
        return Buffer.concat([body.subarray(0, at), Buffer.from('\r\n--'), body.subarray(at)]);
      case 3:
        return Buffer.concat([body.subarray(0, at), crypto.randomBytes(16)]);
      default:
        return Buffer.concat([
          body.subarray(0, at),
          body.subarray(at + 1 + Math.floor(rng() * 64)),
        ]);
    }
  }

  it('answers each with a 4xx or a success, never a 5xx, and leaves nothing half-written', async () => {
    let seed = 20261123;
    const rng = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const uploadId = await session(CHUNK * 2);
    const statuses = new Map<number, number>();
    const countStatus = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    for (let i = 0; i < 300; i++) {
      const simple = i % 2 === 0;
      const body = simple
        ? multipart(
            { isPublic: 'false' },
            { filename: `f${i}.bin`, data: crypto.randomBytes(2000) },
          )
        : multipart(
            { uploadId, chunkIndex: String(i % 2) },
            { field: 'chunk', filename: 'c', data: crypto.randomBytes(CHUNK) },
          );
      const url = simple ? '/api/upload' : '/api/chunked-upload/chunk';
      const res = await post(url, body.headers['content-type']!, damage(body.payload, rng));
      countStatus(res.statusCode);
      expect(res.statusCode, `body ${i} to ${url}: ${res.body}`).toBeLessThan(500);
    }
    await stillServing();
    expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);
    expect(tmpFiles()).toEqual([]);
    // Every stored file is an upload's: nothing written for a refused body.
    const rows = await ctx.handle.db.selectFrom('uploads').select('storage_key').execute();
    const keys = new Set(rows.map((r) => path.join(ctx.dataDir, 'files', r.storage_key)));
    expect(storedFiles().filter((f) => !keys.has(f))).toEqual([]);
  });
});

describe('a client that goes away mid-part', () => {
  it('leaves the process serving and no temporary file, on both routes', async () => {
    const port = await listeningPort();
    const uploadId = await session();
    for (const [url, fields, field] of [
      ['/api/upload', '', 'file'],
      [
        '/api/chunked-upload/chunk',
        `--b\r\ncontent-disposition: form-data; name="uploadId"\r\n\r\n${uploadId}\r\n` +
          '--b\r\ncontent-disposition: form-data; name="chunkIndex"\r\n\r\n1\r\n',
        'chunk',
      ],
    ] as const) {
      await new Promise<void>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(
            `POST ${url} HTTP/1.1\r\nhost: x\r\nauthorization: ${owner.auth.authorization}\r\n` +
              'content-type: multipart/form-data; boundary=b\r\ncontent-length: 1000000\r\n\r\n' +
              fields +
              `--b\r\ncontent-disposition: form-data; name="${field}"; filename="f"\r\n\r\n`,
          );
          socket.write(crypto.randomBytes(20_000), () => {
            setImmediate(() => {
              socket.destroy();
              resolve();
            });
          });
        });
        socket.on('error', () => {});
      });
      await stillServing();
    }
    await vi.waitFor(() => expect(tmpFiles()).toEqual([]));
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/chunked-upload/${uploadId}`,
      headers: owner.auth,
    });
    expect(status.json().receivedChunks).toEqual([]);
  });
});

describe('an upload refused before its body is read', () => {
  /** Sends the whole request over a real socket; answers the status line once it arrives. */
  function sendRaw(
    port: number,
    url: string,
    body: { payload: Buffer; headers: Record<string, string> },
  ) {
    return new Promise<{ status: string; socket: net.Socket }>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      socket.on('error', () => {});
      socket.on('data', (d: Buffer) => {
        received += d.toString('latin1');
        if (received.includes('\r\n')) resolve({ status: received.split('\r\n')[0]!, socket });
      });
      const headers = {
        ...owner.auth,
        ...body.headers,
        'content-length': String(body.payload.length),
      };
      socket.write(
        `POST ${url} HTTP/1.1\r\nhost: x\r\n` +
          Object.entries(headers)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\r\n') +
          '\r\n\r\n',
      );
      socket.write(body.payload);
    });
  }

  it('answers, then lets its connection end with the client (it stayed open for good)', async () => {
    const port = await listeningPort();
    const boundary = 'two';
    const twoFiles = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a"\r\n\r\n`,
      ),
      crypto.randomBytes(1000),
      Buffer.from(
        `\r\n--${boundary}\r\ncontent-disposition: form-data; name="file2"; filename="b"\r\n\r\n`,
      ),
      crypto.randomBytes(8 * 1024 * 1024),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const cases: [string, { payload: Buffer; headers: Record<string, string> }, string][] = [
      [
        '/api/chunked-upload/chunk',
        multipart(
          { uploadId: crypto.randomUUID(), chunkIndex: '0' },
          { field: 'chunk', filename: 'c', data: crypto.randomBytes(8 * 1024 * 1024) },
        ),
        '404',
      ],
      [
        '/api/chunked-upload/chunk',
        multipart(
          { uploadId: crypto.randomUUID(), chunkIndex: 'first' },
          { field: 'chunk', filename: 'c', data: crypto.randomBytes(8 * 1024 * 1024) },
        ),
        '400',
      ],
      [
        '/api/upload',
        {
          payload: twoFiles,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        },
        '400',
      ],
    ];
    for (const [url, body, status] of cases) {
      const { status: line, socket } = await sendRaw(port, url, body);
      expect(line).toContain(status);
      socket.destroy();
      await vi.waitFor(
        () =>
          new Promise<void>((resolve, reject) =>
            ctx.app.server.getConnections((err, n) =>
              err ? reject(err) : n === 0 ? resolve() : reject(new Error(`${n} open`)),
            ),
          ),
        { timeout: 10_000 },
      );
    }
    await stillServing();
    expect(tmpFiles()).toEqual([]);
  });
});

describe('a file name as browsers and curl send it', () => {
  it('reads a quote sent as %22 (their form encoding) back as a quote', async () => {
    const boundary = 'quoted-name-boundary';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="say %22hi%22.txt"\r\n` +
        `Content-Type: text/plain\r\n\r\nhi\r\n--${boundary}--\r\n`,
    );
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { ...owner.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().upload.originalFilename).toBe('say "hi".txt');
  });
});
