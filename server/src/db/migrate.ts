/** Runs the numbered, forward-only migrations. New ones are appended to the list by hand. */
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.ts';
import { m0001Init } from './migrations/0001-init.ts';
import { m0002Uploads } from './migrations/0002-uploads.ts';

const migrations: Record<string, Migration> = {
  '0001-init': m0001Init,
  '0002-uploads': m0002Uploads,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  // Two instances starting together on one SQLite file may collide on the migration lock.
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error)
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    const busy = String((error as { code?: string }).code ?? '').startsWith('SQLITE_BUSY');
    if (!busy || attempt >= 10) throw error;
    await new Promise((r) => setTimeout(r, 100 * attempt));
  }
}
