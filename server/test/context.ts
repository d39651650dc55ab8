/**
 * Builds a real app over a real database for API tests: a temporary SQLite file, or, in the
 * "postgres" project, a fresh PostgreSQL database created for this file and dropped after.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach } from 'vitest';
import { buildApp, type App, type Built } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
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

/** The vitest project running: 'sqlite' or 'postgres' (see vitest.config.ts). */
export const testEngine: 'sqlite' | 'postgres' =
  process.env.UPSHOT_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

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

/**
 * A database of its own for each test of the calling file, with no migration run (a temporary
 * SQLite file, or a new PostgreSQL database), closed and dropped after the test. The returned
 * function gives the current test's handle.
 */
export function freshDatabaseEachTest(): () => DatabaseHandle {
  let dataDir: string;
  let database: TestDatabase;
  let handle: DatabaseHandle;
  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-migrate-'));
    database = await createTestDatabase();
    handle = openDatabase({ dataDir, databaseUrl: database.url });
  });
  afterEach(async () => {
    await handle.db.destroy();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return () => handle;
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
    /** Where the app's log lines go (with LOG_LEVEL set in env). */
    logStream?: NodeJS.WritableStream;
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
    logStream: appOptions.logStream,
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

/** The environment for a child process (another server instance), on top of this one's. */
export function childEnv(overrides: Record<string, string>): Record<string, string | undefined> {
  return { ...process.env, ...overrides };
}

/** Every regular file below a directory (to check that nothing is left behind). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}
