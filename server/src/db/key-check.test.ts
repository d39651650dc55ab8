/**
 * Instances over one database must share its secret key: one that comes up with another key
 * (its own DATA_DIR generated one) stops with a message instead of refusing the others' tokens.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngine, type TestDatabase } from '../../test/context.ts';
import { boot } from '../boot.ts';
import { ConfigError } from '../config.ts';
import { openDatabase } from './database.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-key-check-'));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/**
 * A new database, and where each instance keeps its DATA_DIR: on SQLite the database is a file
 * in DATA_DIR, so its instances share one; on PostgreSQL each has its own.
 */
async function newDatabase(): Promise<{ database: TestDatabase; dataDir: () => string }> {
  const database = await createTestDatabase();
  cleanups.push(database.drop);
  const shared = tempDir();
  return { database, dataDir: () => (database.url ? tempDir() : shared) };
}

const KEY_A = 'key-a-0123456789abcdefghijklmnopqrstuvwxyz';
const KEY_B = 'key-b-0123456789abcdefghijklmnopqrstuvwxyz';

/** Boots over the database and shuts down again. */
async function start(database: TestDatabase, dataDir: string, env: Record<string, string> = {}) {
  const booted = await boot({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  await booted.app.close();
  await booted.handle.db.destroy();
}

async function refusal(
  database: TestDatabase,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<Error> {
  const err = await start(database, dataDir, env).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return err as Error;
}

describe('the secret key the database is used with', () => {
  it('takes the key it first started with, and refuses another until it is accepted on purpose', async () => {
    const { database, dataDir } = await newDatabase();
    await start(database, dataDir(), { SECRET_KEY: KEY_A });
    await start(database, dataDir(), { SECRET_KEY: KEY_A });

    const err = await refusal(database, dataDir(), { SECRET_KEY: KEY_B });
    expect(err.message).toMatch(/^The secret key \(SECRET_KEY\) is not the one this database/);
    expect(err.message).toContain('ACCEPT_NEW_SECRET_KEY=true');

    await start(database, dataDir(), { SECRET_KEY: KEY_B, ACCEPT_NEW_SECRET_KEY: 'true' });
    await start(database, dataDir(), { SECRET_KEY: KEY_B });
    await refusal(database, dataDir(), { SECRET_KEY: KEY_A });
  });

  it('checks a database from before the check against its stored API tokens', async () => {
    const { database, dataDir } = await newDatabase();
    // The first start creates the first administrator, whose API token is encrypted with KEY_A.
    await start(database, dataDir(), { SECRET_KEY: KEY_A });
    const handle = openDatabase({ databaseUrl: database.url, dataDir: dataDir() });
    await handle.db.deleteFrom('key_check').execute();
    await handle.db.destroy();

    await refusal(database, dataDir(), { SECRET_KEY: KEY_B });
    await start(database, dataDir(), { SECRET_KEY: KEY_A });
    await refusal(database, dataDir(), { SECRET_KEY: KEY_B });
  });

  // On SQLite, instances are processes on one machine sharing one DATA_DIR (and so one key);
  // two boots in one process would wait for each other's migration lock.
  it.skipIf(testEngine !== 'postgres')(
    'lets exactly one of two instances starting at once with different keys on a new database start',
    async () => {
      const { database, dataDir } = await newDatabase();
      const results = await Promise.allSettled([
        start(database, dataDir(), { SECRET_KEY: KEY_A }),
        start(database, dataDir(), { SECRET_KEY: KEY_B }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const failed = results.find((r) => r.status === 'rejected');
      expect(failed?.reason).toBeInstanceOf(ConfigError);
    },
  );

  it.skipIf(testEngine !== 'postgres')(
    'names the generated key file when an instance made its own key',
    async () => {
      const { database, dataDir } = await newDatabase();
      await start(database, dataDir(), { SECRET_KEY: KEY_B });
      // A second host without SECRET_KEY generates a key into its own DATA_DIR.
      const second = dataDir();
      const err = await refusal(database, second);
      expect(err.message).toContain(`(${path.join(second, 'secret.key')})`);
      // Given the first instance's key, it starts.
      await start(database, second, { SECRET_KEY: KEY_B });
    },
  );
});
