/**
 * Builds a real app over a real database for API tests: a temporary SQLite file, or, in the
 * "postgres" project, a fresh PostgreSQL database created for this file and dropped after.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type App, type Built } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { NewUploadRow } from '../src/db/schema.ts';
import type { Clock } from '../src/lib/clock.ts';
import { createLocalStorage } from '../src/storage/local.ts';
import type { Storage } from '../src/storage/storage.ts';

export const TEST_SECRET = 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyz';

export class TestClock implements Clock {
  private offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

export type TestDatabase = { url: string | undefined; drop: () => Promise<void> };

/** A throwaway database: undefined url means SQLite inside the data dir. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl =
    process.env.UPSHOT_TEST_ENGINE === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (!adminUrl) return { url: undefined, drop: async () => {} };
  const name = `upshot_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export type TestContext = {
  app: App;
  modules: Built['modules'];
  background: Built['background'];
  config: Config;
  handle: DatabaseHandle;
  clock: TestClock;
  /** The pauses sign-in asked for (tests do not wait them out). */
  sleeps: number[];
  dataDir: string;
  database: TestDatabase;
  close: () => Promise<void>;
};

export async function createTestContext(
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  appOptions: {
    chunkSize?: number;
    /** Wraps the real local storage (to make it fail at a chosen moment). */
    wrapStorage?: (storage: Storage) => Storage;
  } = {},
): Promise<TestContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-test-'));
  const database = await createTestDatabase();
  const config: Config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
      ...env,
    }),
    ...overrides,
  };
  const handle = openDatabase(config);
  await migrateToLatest(handle);
  const clock = new TestClock();
  const sleeps: number[] = [];
  const { app, modules, background } = await buildApp({
    config,
    db: handle.db,
    secretKey: TEST_SECRET,
    clock,
    chunkSize: appOptions.chunkSize,
    storage: appOptions.wrapStorage?.(createLocalStorage(config.dataDir)),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  await app.ready();
  return {
    app,
    modules,
    background,
    config,
    handle,
    clock,
    sleeps,
    dataDir,
    database,
    close: async () => {
      await app.close();
      await handle.db.destroy();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
export async function createUser(
  ctx: TestContext,
  overrides: Partial<{
    email: string;
    username: string;
    role: 'user' | 'admin';
    password: string;
  }> = {},
) {
  counter += 1;
  const password = overrides.password ?? 'correct horse battery';
  const row = await ctx.modules.users.service.create({
    email: overrides.email ?? `user${counter}-${crypto.randomBytes(3).toString('hex')}@example.com`,
    username: overrides.username ?? `user${counter}_${crypto.randomBytes(3).toString('hex')}`,
    role: overrides.role ?? 'user',
    password,
  });
  return { row, password };
}

export async function login(ctx: TestContext, email: string, password: string, ip = '10.0.0.1') {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: ip,
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json<{ token: string }>().token;
}

/** The environment for a child process (another server instance), on top of this one's. */
export function childEnv(overrides: Record<string, string>): Record<string, string | undefined> {
  return { ...process.env, ...overrides };
}

/** A multipart/form-data body: the fields in order, then the file part. */
export function multipart(
  fields: Record<string, string>,
  file?: { field?: string; filename: string; contentType?: string; data: Buffer },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----upshot${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\n` +
          `content-type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function signIn(ctx: TestContext, role: 'user' | 'admin' = 'user') {
  const { row, password } = await createUser(ctx, { role });
  const token = await login(
    ctx,
    row.email,
    password,
    `10.9.${counter % 250}.${(counter * 7) % 250}`,
  );
  return { user: row, token, auth: { authorization: `Bearer ${token}` } };
}

export async function uploadFile(
  ctx: TestContext,
  auth: Record<string, string>,
  file: { filename: string; contentType?: string; data: Buffer },
  fields: Record<string, string> = {},
) {
  const body = multipart(fields, file);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/upload',
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  });
}

/** Every regular file below a directory (to check that nothing is left behind). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

/**
 * An uploads row to insert straight into the table (many rows, or rows that predate a
 * migration), with every column filled; `fields` overrides any of them.
 */
export function uploadRow(userId: string, fields: Partial<NewUploadRow> = {}): NewUploadRow {
  const id = crypto.randomUUID();
  return {
    id,
    user_id: userId,
    original_filename: 'file.png',
    mime_type: 'image/png',
    file_type: 'images',
    size: 1,
    sha256: null,
    views: 0,
    short_code: id.replace(/-/g, '').slice(0, 12),
    vanity_url: null,
    is_public: 1,
    storage_key: `u/00/00/${id.replace(/-/g, '')}`,
    thumbnail_status: 'none',
    thumbnail_key: null,
    created_at: new Date().toISOString(),
    ...fields,
  };
}

/** The ids of a user's upload rows. */
export async function uploadIdsOf(ctx: TestContext, userId: string): Promise<string[]> {
  const rows = await ctx.handle.db
    .selectFrom('uploads')
    .select('id')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.id);
}

/** A user's disk_used, in bytes. */
export async function diskUsedOf(ctx: TestContext, userId: string): Promise<number> {
  const row = await ctx.handle.db
    .selectFrom('users')
    .select('disk_used')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.disk_used);
}
