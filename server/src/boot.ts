/** Everything between reading the environment and listening: shared by main.ts and tests. */
import path from 'node:path';
import { buildApp, type Built } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { checkSecretKey } from './db/key-check.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { UserRow } from './db/schema.ts';
import { resolveSecretKey } from './lib/secret-key.ts';
import { createLocalStorage } from './storage/local.ts';
import { createS3Storage, StorageConfigError } from './storage/s3.ts';
import type { Storage } from './storage/storage.ts';

export type Booted = Built & {
  config: Config;
  handle: DatabaseHandle;
  firstAdmin: { user: UserRow; generatedPassword?: string } | null;
  /** Lets go of the store's connections (S3's sockets); nothing to do for local disk. */
  closeStorage: () => void;
};

/** The configured byte store; a bucket that does not answer to its settings stops the start. */
export async function openStorage(config: Config): Promise<Storage> {
  if (config.storage.driver === 'local') return createLocalStorage(config.dataDir);
  const s3 = createS3Storage(config.storage.s3);
  try {
    await s3.checkBucket();
  } catch (err) {
    s3.destroy();
    if (err instanceof StorageConfigError) {
      throw new ConfigError(`S3 storage is not usable:\n  ${err.message}`);
    }
    throw err;
  }
  return s3;
}

export async function boot(env?: Record<string, string | undefined>): Promise<Booted> {
  const config = loadConfig(env);
  const handle = openDatabase(config);
  const applied = await migrateToLatest(handle);
  const secretKey = resolveSecretKey(config.secretKey, config.dataDir);
  let keyCheck: Awaited<ReturnType<typeof checkSecretKey>>;
  try {
    keyCheck = await checkSecretKey(handle.db, secretKey, {
      source: config.secretKey ? 'SECRET_KEY' : path.join(config.dataDir, 'secret.key'),
      acceptNew: config.acceptNewSecretKey,
      now: new Date(),
    });
  } catch (err) {
    await handle.db.destroy();
    throw err;
  }
  const storage = await openStorage(config);
  const built = await buildApp({
    config,
    db: handle.db,
    secretKey,
    storage,
    poolUse: handle.poolUse,
  });
  built.app.log.info({ dialect: handle.dialect, applied }, 'database ready');
  if (keyCheck === 'replaced') {
    built.app.log.warn(
      'ACCEPT_NEW_SECRET_KEY: the database now takes this secret key; API tokens and deletion links made with the previous one no longer work (unset it again)',
    );
  }
  const firstAdmin = await built.modules.users.service.ensureFirstAdmin(config.admin);
  const closeStorage = () => {
    if ('destroy' in storage && typeof storage.destroy === 'function') storage.destroy();
  };
  return { ...built, config, handle, firstAdmin, closeStorage };
}
