/** Everything between reading the environment and listening: shared by main.ts and tests. */
import { buildApp, type Built } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { UserRow } from './db/schema.ts';
import { resolveSecretKey } from './lib/secret-key.ts';

export type Booted = Built & {
  config: Config;
  handle: DatabaseHandle;
  firstAdmin: { user: UserRow; generatedPassword?: string } | null;
};

export async function boot(env?: Record<string, string | undefined>): Promise<Booted> {
  const config = loadConfig(env);
  const handle = openDatabase(config);
  const applied = await migrateToLatest(handle);
  const secretKey = resolveSecretKey(config.secretKey, config.dataDir);
  const built = await buildApp({ config, db: handle.db, secretKey });
  built.app.log.info({ dialect: handle.dialect, applied }, 'database ready');
  const firstAdmin = await built.modules.users.service.ensureFirstAdmin(config.admin);
  return { ...built, config, handle, firstAdmin };
}
