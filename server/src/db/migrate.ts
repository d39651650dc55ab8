/**
 * Runs the numbered, forward-only migrations, all pending ones in one transaction on both
 * engines (see TransactionalSqliteDialect), one process at a time. New ones are appended to
 * the list by hand.
 */
import { Migrator, type Migration } from 'kysely';
import type { DatabaseHandle } from './database.ts';
import { m0001Init } from './migrations/0001-init.ts';
import { m0002Uploads } from './migrations/0002-uploads.ts';
import { m0003SearchOwner } from './migrations/0003-search-owner.ts';
import { m0004Hardening } from './migrations/0004-hardening.ts';
import { m0005CleanNames } from './migrations/0005-clean-names.ts';
import { m0006TagsStats } from './migrations/0006-tags-stats.ts';
import { m0007Preferences } from './migrations/0007-preferences.ts';
import { m0008Admin } from './migrations/0008-admin.ts';
import { m0009JobLeases } from './migrations/0009-job-leases.ts';
import { m0010KeyCheck } from './migrations/0010-key-check.ts';
import { m0011LinkChanges } from './migrations/0011-link-changes.ts';
import { m0012DropLinkChanges } from './migrations/0012-drop-link-changes.ts';
import { m0013PartEtags } from './migrations/0013-part-etags.ts';
import { m0014Limits } from './migrations/0014-limits.ts';
import { m0015RetiredSlugs } from './migrations/0015-retired-slugs.ts';
import { m0016SessionReservations } from './migrations/0016-session-reservations.ts';
import { m0017LinkControls } from './migrations/0017-link-controls.ts';
import { m0018StripMetadata } from './migrations/0018-strip-metadata.ts';
import { m0019MediaSize } from './migrations/0019-media-size.ts';
import { m0020LinkStyleEmbeds } from './migrations/0020-link-style-embeds.ts';

export const MIGRATIONS: Record<string, Migration> = {
  '0001-init': m0001Init,
  '0002-uploads': m0002Uploads,
  '0003-search-owner': m0003SearchOwner,
  '0004-hardening': m0004Hardening,
  '0005-clean-names': m0005CleanNames,
  '0006-tags-stats': m0006TagsStats,
  '0007-preferences': m0007Preferences,
  '0008-admin': m0008Admin,
  '0009-job-leases': m0009JobLeases,
  '0010-key-check': m0010KeyCheck,
  '0011-link-changes': m0011LinkChanges,
  '0012-drop-link-changes': m0012DropLinkChanges,
  '0013-part-etags': m0013PartEtags,
  '0014-limits': m0014Limits,
  '0015-retired-slugs': m0015RetiredSlugs,
  '0016-session-reservations': m0016SessionReservations,
  '0017-link-controls': m0017LinkControls,
  '0018-strip-metadata': m0018StripMetadata,
  '0019-media-size': m0019MediaSize,
  '0020-link-style-embeds': m0020LinkStyleEmbeds,
};

function migrator(handle: DatabaseHandle, migrations: Record<string, Migration>): Migrator {
  return new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
}

/** Applies what is pending; returns the names applied now. */
export async function migrateToLatest(
  handle: DatabaseHandle,
  migrations: Record<string, Migration> = MIGRATIONS,
): Promise<string[]> {
  return handle.withMigrationLock(async () => {
    const { error, results } = await migrator(handle, migrations).migrateToLatest();
    if (error) throw error;
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  });
}

/** Brings the schema up to the named migration (tests of a later migration's data step). */
export async function migrateTo(handle: DatabaseHandle, name: string): Promise<void> {
  await handle.withMigrationLock(async () => {
    const { error } = await migrator(handle, MIGRATIONS).migrateTo(name);
    if (error) throw error;
  });
}
