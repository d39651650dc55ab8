/**
 * Chunked uploads for API tests: the protocol's calls through app.inject, the session's rows,
 * and a chunk sent over a real connection that can stop halfway and finish later.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect, vi } from 'vitest';
import type { TestContext } from './context.ts';
import { multipart } from './uploads.ts';

type Auth = Record<string, string>;

export function initChunked(ctx: TestContext, auth: Auth, payload: Record<string, unknown>) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/chunked-upload/init',
    headers: auth,
    payload,
  });
}

/** Starts a session for `data` in chunks of ctx's chunk size; answers its id. */
export async function startChunked(
  ctx: TestContext,
  auth: Auth,
  data: Buffer,
  chunkSize: number,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const res = await initChunked(ctx, auth, {
    filename: 'data.bin',
    mimeType: '',
    totalSize: data.length,
    totalChunks: Math.max(1, Math.ceil(data.length / chunkSize)),
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ uploadId: string }>().uploadId;
}

/** A chunk as multipart fields; `chunkIndex` is sent as given (a string) when it is one. */
export function sendChunk(
  ctx: TestContext,
  auth: Auth,
  uploadId: string,
  index: number | string,
  data: Buffer,
  query = '',
) {
  const body = multipart(
    { uploadId, chunkIndex: String(index) },
    { field: 'chunk', filename: 'blob', data },
  );
  return ctx.app.inject({
    method: 'POST',
    url: `/api/chunked-upload/chunk${query}`,
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  });
}

export function completeChunked(ctx: TestContext, auth: Auth, uploadId: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/chunked-upload/complete',
    headers: auth,
    payload: { uploadId },
  });
}

export function chunkStatus(ctx: TestContext, auth: Auth, uploadId: string) {
  return ctx.app.inject({ method: 'GET', url: `/api/chunked-upload/${uploadId}`, headers: auth });
}

export function abortChunked(ctx: TestContext, auth: Auth, uploadId: string) {
  return ctx.app.inject({
    method: 'DELETE',
    url: `/api/chunked-upload/${uploadId}`,
    headers: auth,
  });
}

export const sliceOf = (data: Buffer, i: number, size: number) =>
  data.subarray(i * size, (i + 1) * size);

/** Sends every chunk of `data` in order, expecting each to be stored. */
export async function sendAll(
  ctx: TestContext,
  auth: Auth,
  uploadId: string,
  data: Buffer,
  size: number,
) {
  const n = Math.max(1, Math.ceil(data.length / size));
  for (let i = 0; i < n; i++) {
    const res = await sendChunk(ctx, auth, uploadId, i, sliceOf(data, i, size));
    expect(res.statusCode, res.body).toBe(204);
  }
}

export function sessionRow(ctx: TestContext, uploadId: string) {
  return ctx.handle.db
    .selectFrom('chunked_uploads')
    .selectAll()
    .where('id', '=', uploadId)
    .executeTakeFirst();
}

export function partRows(ctx: TestContext, uploadId: string) {
  return ctx.handle.db
    .selectFrom('chunked_upload_parts')
    .selectAll()
    .where('upload_id', '=', uploadId)
    .orderBy('chunk_index')
    .execute();
}

/** Where the local driver keeps a session's parts until completion. */
export function multipartFile(ctx: TestContext, multipartId: string): string {
  return path.join(ctx.dataDir, 'tmp', 'multipart', multipartId);
}

/** Bytes [start, start + length) of a file, or fewer when it is shorter. */
export function readRange(file: string, start: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  const fd = fs.openSync(file, 'r');
  try {
    const n = fs.readSync(fd, buf, 0, length, start);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/** Waits until part `index` of the session is claimed by a writer (state 'writing'). */
export async function waitForWriting(ctx: TestContext, uploadId: string, index: number) {
  await vi.waitFor(async () => {
    const part = (await partRows(ctx, uploadId)).find((p) => Number(p.chunk_index) === index);
    expect(part?.state).toBe('writing');
  });
}

export type RawResponse = { status: number; headers: string; body: string };

/**
 * A chunk request over its own TCP connection to a listening app: `send(n)` writes the request
 * head, the multipart prelude and the first n bytes of the chunk, and keeps the connection open;
 * `finish()` writes the rest and resolves with the answer.
 */
export function openChunk(
  address: string,
  auth: Auth,
  uploadId: string,
  index: number,
  data: Buffer,
) {
  const body = multipart(
    { uploadId, chunkIndex: String(index) },
    { field: 'chunk', filename: 'blob', data },
  );
  // The multipart envelope ends with "\r\n--boundary--\r\n" after the bytes.
  const dataStart = body.payload.indexOf(data);
  const { hostname, port } = new URL(address);
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => {});
  const received: Buffer[] = [];
  socket.on('data', (d: Buffer) => received.push(d));
  const ended = new Promise<RawResponse>((resolve) => {
    socket.on('close', () => resolve(parseResponse(Buffer.concat(received))));
  });
  const head =
    `POST /api/chunked-upload/chunk HTTP/1.1\r\nhost: ${hostname}\r\n` +
    Object.entries({ ...auth, ...body.headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    `content-length: ${body.payload.length}\r\nconnection: close\r\n\r\n`;
  let sent = 0;
  return {
    /** Sends the head and the prelude and the first `n` bytes of the chunk. */
    send(n: number): Promise<void> {
      const upTo = dataStart + n;
      const part = body.payload.subarray(sent, upTo);
      const prefix = sent === 0 ? Buffer.from(head) : Buffer.alloc(0);
      sent = upTo;
      return new Promise((resolve, reject) =>
        socket.write(Buffer.concat([prefix, part]), (err) => (err ? reject(err) : resolve())),
      );
    },
    /** Sends the rest of the body; resolves with the answer once the server closes. */
    async finish(): Promise<RawResponse> {
      const rest = body.payload.subarray(sent);
      sent = body.payload.length;
      if (!socket.destroyed) socket.write(rest);
      return ended;
    },
    destroy: () => socket.destroy(),
  };
}

function parseResponse(raw: Buffer): RawResponse {
  const text = raw.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return { status: 0, headers: text, body: '' };
  const headers = text.slice(0, split);
  let body = text.slice(split + 4);
  if (/^transfer-encoding:\s*chunked/im.test(headers)) {
    let out = '';
    for (;;) {
      const eol = body.indexOf('\r\n');
      const size = parseInt(body.slice(0, eol), 16);
      if (!size) break;
      out += body.slice(eol + 2, eol + 2 + size);
      body = body.slice(eol + 2 + size + 2);
    }
    body = out;
  }
  return { status: Number(headers.split(' ')[1]), headers, body };
}
