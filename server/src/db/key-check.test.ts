/**
 * Instances over one database must share its secret key: one that comes up with another key
 * (its own DATA_DIR generated one) stops with a message instead of refusing the others' tokens.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/context.ts';
import { boot } from '../boot.ts';
import { ConfigError } from '../config.ts';

let database: TestDatabase;
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-key-check-'));
  dirs.push(dir);
  return dir;
};
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const KEY_A = 'key-a-0123456789abcdefghijklmnopqrstuvwxyz';
const KEY_B = 'key-b-0123456789abcdefghijklmnopqrstuvwxyz';

/** Boots over the test database (SQLite: the file in dataDir) and shuts down again. */
async function start(dataDir: string, env: Record<string, string> = {}) {
  const booted = await boot({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  await booted.app.close();
  await booted.handle.db.destroy();
}

async function refusal(dataDir: string, env: Record<string, string> = {}): Promise<Error> {
  const err = await start(dataDir, env).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return err as Error;
}

describe('the secret key the database is used with', () => {
  it('takes the key it first started with, and refuses another until it is accepted on purpose', async () => {
    // SQLite keeps the database in DATA_DIR, so its instances share that folder.
    const shared = tempDir();
    const other = () => (database.url ? tempDir() : shared);
    await start(shared, { SECRET_KEY: KEY_A });
    await start(other(), { SECRET_KEY: KEY_A });

    const err = await refusal(other(), { SECRET_KEY: KEY_B });
    expect(err.message).toMatch(/^The secret key \(SECRET_KEY\) is not the one this database/);
    expect(err.message).toContain('ACCEPT_NEW_SECRET_KEY=true');

    await start(other(), { SECRET_KEY: KEY_B, ACCEPT_NEW_SECRET_KEY: 'true' });
    await start(other(), { SECRET_KEY: KEY_B });
    await refusal(other(), { SECRET_KEY: KEY_A });
  });

  it('names the generated key file when an instance made its own key', async () => {
    if (!database.url) return; // SQLite: one DATA_DIR, so one generated key
    const first = tempDir();
    await start(first, { SECRET_KEY: KEY_B });
    // A second host without SECRET_KEY generates a key into its own DATA_DIR.
    const second = tempDir();
    const err = await refusal(second);
    expect(err.message).toContain(`(${path.join(second, 'secret.key')})`);
    // Given the first instance's key, it starts.
    await start(second, { SECRET_KEY: KEY_B });
  });
});
