/** Runs the numbered, forward-only migrations. New ones are appended to the list by hand. */
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseHandle } from './database.ts';
import { m0001Init } from './migrations/0001-init.ts';
import { m0002Uploads } from './migrations/0002-uploads.ts';
import { m0003SearchOwner } from './migrations/0003-search-owner.ts';

const migrations: Record<string, Migration> = {
  '0001-init': m0001Init,
  '0002-uploads': m0002Uploads,
  '0003-search-owner': m0003SearchOwner,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies what is pending, one process at a time; returns the names applied now. */
export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  const migrator = new Migrator({ db: handle.db, provider });
  return handle.withMigrationLock(async () => {
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error;
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  });
}

/** Brings the schema up to the named migration (tests of a later migration's data step). */
export async function migrateTo(handle: DatabaseHandle, name: string): Promise<void> {
  const migrator = new Migrator({ db: handle.db, provider });
  await handle.withMigrationLock(async () => {
    const { error } = await migrator.migrateTo(name);
    if (error) throw error;
  });
}
