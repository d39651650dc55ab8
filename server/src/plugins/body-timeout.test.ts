/**
 * A request whose body stops arriving for BODY_IDLE_TIMEOUT_MS ends with 408 and leaves no
 * temporary file; a slow but steady body is never cut, nor is a download whose client pauses.
 * Over real sockets to a listening server (a short timeout).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { filesUnder } from '../../test/context.ts';
import { createTokenUser, startLiveServer, type LiveServer } from '../../test/live-server.ts';

const TIMEOUT_MS = 400;

let server: LiveServer;
let token: string;
let userId: string;
beforeAll(async () => {
  server = await startLiveServer({}, { BODY_IDLE_TIMEOUT_MS: String(TIMEOUT_MS) });
  ({
    token,
    user: { id: userId },
  } = await createTokenUser(server.ctx));
}, 60_000);
afterAll(() => server.close());

/** A raw connection: what the client sends is written by hand, what comes back is kept. */
async function connect() {
  const { port } = new URL(server.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve, reject) =>
    socket.once('connect', resolve).once('error', reject),
  );
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => (received += d));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  return { socket, received: () => received, closed };
}

const boundary = 'upshot-idle-boundary';
function uploadHead(url: string, bodyLength: number, extra = '') {
  return (
    `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-token: ${token}\r\n` +
    `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
    `Content-Length: ${bodyLength}\r\n${extra}\r\n`
  );
}
const field = (name: string, value: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="slow.bin"\r\n` +
  'Content-Type: application/octet-stream\r\n\r\n';
const tail = `\r\n--${boundary}--\r\n`;

const tmpDir = () => path.join(server.ctx.dataDir, 'tmp');
const partFiles = () => fs.readdirSync(tmpDir()).filter((n) => n.endsWith('.part'));
const uploadsOf = async () =>
  (
    await server.ctx.handle.db
      .selectFrom('uploads')
      .select('id')
      .where('user_id', '=', userId)
      .execute()
  ).length;

function expect408(answer: string) {
  const head = answer.slice(0, answer.indexOf('\r\n\r\n')).toLowerCase();
  expect(head).toMatch(/^http\/1\.1 408 /);
  expect(head).toContain('connection: close');
  expect(answer).toContain(
    `{"error":"request_timeout","message":"No part of the request body arrived for 0.4 s"}`,
  );
}

describe('a request body that stops arriving', () => {
  it('ends a simple upload with 408, its temporary file removed', async () => {
    const before = await uploadsOf();
    const bytes = crypto.randomBytes(256 * 1024);
    const head = filePart('file');
    const c = await connect();
    c.socket.write(uploadHead('/api/upload', head.length + 1024 * 1024 + tail.length));
    c.socket.write(head);
    c.socket.write(bytes);
    // Its bytes so far are in a temporary file while it waits for more.
    await vi.waitFor(() => expect(partFiles()).toHaveLength(1), { timeout: 5000 });
    await c.closed;
    expect408(c.received());
    expect(partFiles()).toEqual([]);
    expect(await uploadsOf()).toBe(before);
  });

  it('ends a chunk with 408 and records nothing of it', async () => {
    const init = await fetch(`${server.url}/api/chunked-upload/init`, {
      method: 'POST',
      headers: { 'x-api-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'c.bin', mimeType: '', totalSize: 1000, totalChunks: 1 }),
    });
    const { uploadId } = (await init.json()) as { uploadId: string };
    const head = field('uploadId', uploadId) + field('chunkIndex', '0') + filePart('chunk');
    const c = await connect();
    c.socket.write(uploadHead('/api/chunked-upload/chunk', head.length + 1000 + tail.length));
    c.socket.write(head);
    c.socket.write(Buffer.alloc(400, 1));
    await c.closed;
    expect408(c.received());
    const status = await fetch(`${server.url}/api/chunked-upload/${uploadId}`, {
      headers: { 'x-api-token': token },
    });
    expect(((await status.json()) as { receivedChunks: number[] }).receivedChunks).toEqual([]);
  });

  it('ends a JSON body with 408', async () => {
    const c = await connect();
    c.socket.write(
      'POST /api/tags HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `x-api-token: ${token}\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    await c.closed;
    expect408(c.received());
  });
});

describe('what is not cut', () => {
  it('a slow but steady upload, however long it takes', async () => {
    const before = await uploadsOf();
    const head = filePart('file');
    const pieces = 12;
    const piece = crypto.randomBytes(1000);
    const c = await connect();
    c.socket.write(uploadHead('/api/upload', head.length + pieces * piece.length + tail.length));
    c.socket.write(head);
    // Six timeouts long in all, never more than a third of one apart.
    for (let i = 0; i < pieces; i++) {
      await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS / 2));
      c.socket.write(piece);
    }
    c.socket.write(tail);
    await vi.waitFor(() => expect(c.received()).toContain('"upload"'), { timeout: 5000 });
    expect(c.received()).toMatch(/^HTTP\/1\.1 201 /);
    expect(await uploadsOf()).toBe(before + 1);
    c.socket.destroy();
  });

  it('a download whose client stops reading for a while', async () => {
    const data = crypto.randomBytes(8 * 1024 * 1024);
    const form = new FormData();
    form.append('file', new Blob([data]), 'big.bin');
    const res = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      headers: { 'x-api-token': token },
      body: form,
    });
    const { upload } = (await res.json()) as { upload: { shortCode: string } };
    const c = await connect();
    c.socket.pause();
    c.socket.write(`GET /${upload.shortCode} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    // The answer fills the socket's buffers, then waits on the client for three timeouts.
    await new Promise((resolve) => setTimeout(resolve, 3 * TIMEOUT_MS));
    c.socket.resume();
    await vi.waitFor(() => expect(c.received().length).toBeGreaterThan(data.length), {
      timeout: 10_000,
    });
    const answer = Buffer.from(c.received(), 'latin1');
    const body = answer.subarray(answer.indexOf('\r\n\r\n') + 4);
    expect(body.equals(data)).toBe(true);
    c.socket.destroy();
  });
});

it('leaves no temporary file behind in any of these', () => {
  expect(filesUnder(tmpDir()).filter((f) => f.endsWith('.part'))).toEqual([]);
});
