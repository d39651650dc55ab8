/**
 * What the server creates under DATA_DIR is its own only, whatever the umask it starts with
 * (022 here, the usual one): directories 0700, files 0600 (the database with its -wal and -shm,
 * the secret key, stored files, thumbnails, temporary files). A DATA_DIR the operator made
 * keeps its mode. The real process (src/main.ts), on the suite's engine.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/context.ts';
import { call, startInstance, type Instance } from '../test/instances.ts';
import { freePort, tempDir } from '../test/live-server.ts';

let database: TestDatabase;
let instance: Instance | null = null;
let umask: number;
beforeAll(() => {
  umask = process.umask(0o022);
});
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await instance?.kill();
  instance = null;
  await database.drop();
});
afterAll(() => {
  process.umask(umask);
});

/** Every file and directory below dir (dir itself not included), with its permission bits. */
function modesUnder(dir: string): Map<string, number> {
  const modes = new Map<string, number>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    modes.set(path.relative(dir, full), fs.statSync(full).mode & 0o777);
  }
  return modes;
}

/** Starts the server on dataDir (a fresh database), uploads, and leaves bytes at every stage. */
async function startAndUse(dataDir: string) {
  const server = startInstance('data-dir', await freePort(), {
    DATA_DIR: dataDir,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ADMIN_EMAIL: 'modes@example.com',
    ADMIN_PASSWORD: 'correct horse battery',
  });
  instance = server;
  await server.waitForOutput('Upshot is listening', 30_000);
  const login = await call<{ token: string }>(server.url, 'POST', '/api/auth/login', {
    body: { email: 'modes@example.com', password: 'correct horse battery' },
  });
  const auth = { authorization: `Bearer ${login.json.token}` };

  // A stored file with a thumbnail.
  const png = await sharp({
    create: { width: 64, height: 64, channels: 3, background: '#369' },
  })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([png], { type: 'image/png' }), 'pic.png');
  const res = await fetch(`${server.url}/api/upload`, {
    method: 'POST',
    headers: auth,
    body: form,
  });
  expect(res.status).toBe(201);
  const { upload } = (await res.json()) as { upload: { shortCode: string } };
  await vi.waitFor(
    async () => expect((await fetch(`${server.url}/thumb/${upload.shortCode}`)).status).toBe(200),
    { timeout: 15_000 },
  );
  // A chunked session's file.
  const init = await call(server.url, 'POST', '/api/chunked-upload/init', {
    headers: auth,
    body: { filename: 'c.bin', mimeType: '', totalSize: 1000, totalChunks: 1 },
  });
  expect(init.status).toBe(201);
  // An upload in flight: its temporary file.
  const { port } = new URL(server.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  socket.on('error', () => {});
  const boundary = 'modes-boundary';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  socket.write(
    `POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth.authorization}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: ${head.length + 1024 * 1024}\r\n\r\n${head}`,
  );
  socket.write(crypto.randomBytes(64 * 1024));
  await vi.waitFor(
    () =>
      expect(fs.readdirSync(path.join(dataDir, 'tmp')).some((n) => n.endsWith('.part'))).toBe(true),
    { timeout: 10_000 },
  );
  return socket;
}

function expectPrivate(modes: Map<string, number>) {
  const open = [...modes].filter(([, mode]) => (mode & 0o077) !== 0);
  expect(open.map(([name, mode]) => `${name} ${mode.toString(8)}`)).toEqual([]);
}

describe('a DATA_DIR the server creates', () => {
  it('holds only directories and files of its own (0700, 0600)', async () => {
    const dataDir = path.join(tempDir('upshot-modes-'), 'data');
    const socket = await startAndUse(dataDir);
    const modes = modesUnder(dataDir);
    const names = [...modes.keys()];
    // Everything the test meant to leave is there, so each was checked.
    expect(names).toEqual(
      expect.arrayContaining([
        'secret.key',
        'files',
        'tmp',
        path.join('tmp', 'multipart'),
        ...(database.url ? [] : ['upshot.db', 'upshot.db-wal', 'upshot.db-shm']),
      ]),
    );
    expect(names.filter((n) => n.startsWith(path.join('files', 't')))).not.toEqual([]);
    expect(names.filter((n) => n.endsWith('.part'))).toHaveLength(1);
    expect(fs.readdirSync(path.join(dataDir, 'tmp', 'multipart'))).toHaveLength(1);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expectPrivate(modes);
    socket.destroy();
  });
});

describe('a DATA_DIR the operator made', () => {
  it('keeps its mode; what the server makes in it is its own', async () => {
    const dataDir = tempDir('upshot-modes-');
    fs.chmodSync(dataDir, 0o750);
    const socket = await startAndUse(dataDir);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o750);
    expectPrivate(modesUnder(dataDir));
    socket.destroy();
  });
});
