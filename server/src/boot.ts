/** Everything between reading the environment and listening: shared by main.ts and tests. */
import path from 'node:path';
import { buildApp, type Built } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { checkKeyDigest } from './db/key-check.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { UserRow } from './db/schema.ts';
import { decrypt, deriveKeys, keyCheckDigest } from './lib/crypto.ts';
import { resolveSecretKey } from './lib/secret-key.ts';
import { createLocalStorage } from './storage/local.ts';
import type { Storage } from './storage/storage.ts';
import { trackWrites, type TrackedStorage } from './storage/tracked.ts';

export type Booted = Built & {
  config: Config;
  handle: DatabaseHandle;
  firstAdmin: { user: UserRow; generatedPassword?: string } | null;
  /**
   * Waits for the store's writes in flight to end (a cut-off upload removing its temporary
   * file), then lets go of its connections (S3's sockets).
   */
  closeStorage: () => Promise<void>;
};

/** The configured byte store; a bucket that does not answer to its settings stops the start. */
export async function openStorage(config: Config): Promise<TrackedStorage<Storage>> {
  if (config.storage.driver === 'local') return trackWrites(createLocalStorage(config.dataDir));
  // The AWS SDK is loaded only where it is used (decision 19).
  const { createS3Storage, StorageConfigError } = await import('./storage/s3.ts');
  const s3 = createS3Storage(config.storage.s3);
  try {
    await s3.check();
  } catch (err) {
    s3.destroy();
    if (err instanceof StorageConfigError) {
      throw new ConfigError(`S3 storage is not usable:\n  ${err.message}`);
    }
    throw err;
  }
  return trackWrites(s3);
}

/** Why an instance with another secret key than the database's stops (db/key-check.ts). */
function keyMismatch(config: Config): ConfigError {
  const source = config.secretKey ? 'SECRET_KEY' : path.join(config.dataDir, 'secret.key');
  return new ConfigError(
    [
      `The secret key (${source}) is not the one this database is used with: API tokens,`,
      '  deletion links and signed links made with that key would be refused here.',
      '  Give every instance the same SECRET_KEY: the key the first instance was given, or the one',
      '  it generated into its DATA_DIR/secret.key (docs/DEPLOYMENT.md, "What the instances must share").',
      '  To change the key on purpose (every API token and deletion link made so far stops',
      '  working), start once with ACCEPT_NEW_SECRET_KEY=true.',
    ].join('\n'),
  );
}

function closeStorageOf(storage: Storage | null): void {
  if (storage && 'destroy' in storage && typeof storage.destroy === 'function') storage.destroy();
}

export async function boot(
  env?: Record<string, string | undefined>,
  options: { logStream?: NodeJS.WritableStream } = {},
): Promise<Booted> {
  const config = loadConfig(env);
  const handle = openDatabase(config);
  let storage: TrackedStorage<Storage> | null = null;
  let built: Built | null = null;
  try {
    const applied = await migrateToLatest(handle);
    const secretKey = resolveSecretKey(config.secretKey, config.dataDir);
    storage = await openStorage(config);
    const keys = deriveKeys(secretKey);
    const keyCheck = await checkKeyDigest(handle.db, keyCheckDigest(secretKey), {
      acceptNew: config.acceptNewSecretKey,
      now: new Date(),
      opensToken: (encrypted) => {
        try {
          decrypt(keys.tokenCipher, encrypted);
          return true;
        } catch {
          return false;
        }
      },
    });
    if (keyCheck === 'mismatch') throw keyMismatch(config);
    built = await buildApp({
      config,
      db: handle.db,
      secretKey,
      storage,
      poolUse: handle.poolUse,
      logStream: options.logStream,
    });
    built.app.log.info({ dialect: handle.dialect, applied }, 'database ready');
    if (keyCheck === 'replaced') {
      built.app.log.warn(
        'ACCEPT_NEW_SECRET_KEY: the database now takes this secret key; API tokens and deletion links made with the previous one no longer work (unset it again)',
      );
    }
    const firstAdmin = await built.modules.users.service.ensureFirstAdmin(config.admin);
    const opened = storage;
    const closeStorage = async () => {
      await opened.writesSettled();
      closeStorageOf(opened);
    };
    return { ...built, config, handle, firstAdmin, closeStorage };
  } catch (err) {
    // Nothing of a failed start stays open (a test or a supervisor may try again).
    await built?.app.close().catch(() => undefined);
    closeStorageOf(storage);
    await handle.db.destroy().catch(() => undefined);
    throw err;
  }
}
