/**
 * kill -9 in the middle of many uploads: after a restart every upload the server acknowledged
 * is there, byte for byte, every row left has its whole file, the quota bookkeeping matches the
 * rows (each charged at least one 4 KiB block) and keeps holding, and no temporary file of the
 * killed process is left, on both engines.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chargedBytes } from '@upshot/contract';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { childEnv, createTestDatabase, type TestDatabase } from '../../../test/context.ts';

const main = fileURLToPath(new URL('../../main.ts', import.meta.url));
let database: TestDatabase;
let dataDir: string;
let port: number;
let server: ChildProcess | null = null;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = s.address() as net.AddressInfo;
      s.close(() => resolve(p));
    });
  });
}

async function start(): Promise<void> {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: childEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: database.url ?? '',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'crash@example.com',
      ADMIN_PASSWORD: 'crash-test-password',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  server = child;
  await vi.waitFor(() => expect(output).toContain('Upshot is listening'), { timeout: 30_000 });
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-crash-'));
  port = await freePort();
});
afterAll(async () => {
  server?.kill('SIGKILL');
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('keeps every acknowledged upload whole, and the quota right, across kill -9', async () => {
  await start();
  const base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'crash@example.com', password: 'crash-test-password' }),
  });
  const { token } = (await login.json()) as { token: string };

  const acknowledged = new Map<string, Buffer>(); // short code -> bytes
  let killed = false;
  let cutOff = 0;
  const uploadOne = async (i: number) => {
    // Mostly files of 20 KB to 3 MB; every fifth one smaller than the 4 KiB a file is charged.
    const size = i % 5 === 0 ? (i * 37) % 4000 : 20_000 + ((i * 7919) % 3_000_000);
    const data = crypto.randomBytes(size);
    const form = new FormData();
    form.append('file', new Blob([data]), `file-${i}.bin`);
    try {
      const res = await fetch(`${base}/api/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      if (res.status === 201) {
        acknowledged.set(
          ((await res.json()) as { upload: { shortCode: string } }).upload.shortCode,
          data,
        );
      } else {
        cutOff += 1;
      }
    } catch {
      // cut off by the kill: not acknowledged, so it may or may not exist
      cutOff += 1;
    }
  };
  // Four clients upload one file after another; the server dies while they are at it.
  const clients = Array.from({ length: 4 }, async (_, c) => {
    for (let i = c; i < 200 && !killed; i += 4) await uploadOne(i);
  });
  await vi.waitFor(() => expect(acknowledged.size).toBeGreaterThanOrEqual(12), { timeout: 60_000 });
  const exited = once(server!, 'exit');
  server!.kill('SIGKILL');
  killed = true;
  await Promise.all(clients);
  await exited;
  // The kill came in the middle of uploads, not between them.
  expect(cutOff).toBeGreaterThan(0);

  await start();
  for (const [code, data] of acknowledged) {
    const res = await fetch(`${base}/${code}`);
    expect(res.status, code).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(data), code).toBe(true);
  }

  let handle: DatabaseHandle | null = null;
  try {
    handle = openDatabase({ dataDir, databaseUrl: database.url });
    const user = await handle.db
      .selectFrom('users')
      .select(['id', 'disk_used', 'upload_count'])
      .executeTakeFirstOrThrow();
    const rows = await handle.db
      .selectFrom('uploads')
      .select(['size', 'storage_key', 'sha256'])
      .where('user_id', '=', user.id)
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(acknowledged.size);
    const charged = rows.reduce((sum, r) => sum + chargedBytes(Number(r.size)), 0);
    expect(Number(user.disk_used)).toBe(charged);
    expect(Number(user.upload_count)).toBe(rows.length);
    // Every row, acknowledged or not, has its whole file: the size, and the digest when known.
    for (const r of rows) {
      const bytes = fs.readFileSync(path.join(dataDir, 'files', r.storage_key));
      expect(bytes.length).toBe(Number(r.size));
      if (r.sha256) {
        expect(crypto.createHash('sha256').update(bytes).digest('hex')).toBe(r.sha256);
      }
    }
    // The restarted process removed the killed one's temporary files.
    const temporary = fs.readdirSync(path.join(dataDir, 'tmp')).filter((f) => f.endsWith('.part'));
    expect(temporary).toEqual([]);

    // And the quota keeps holding: room for 8 KiB more takes 8 KiB, not a byte past it.
    await handle.db
      .updateTable('users')
      .set({ disk_quota: charged + 8192 })
      .where('id', '=', user.id)
      .execute();
    const put = (size: number) => {
      const form = new FormData();
      form.append('file', new Blob([crypto.randomBytes(size)]), `after-${size}.bin`);
      return fetch(`${base}/api/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
    };
    expect((await put(8193)).status).toBe(413);
    expect((await put(8192)).status).toBe(201);
    const after = await handle.db
      .selectFrom('users')
      .select('disk_used')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(after.disk_used)).toBe(charged + 8192);
  } finally {
    await handle?.db.destroy();
  }
});
