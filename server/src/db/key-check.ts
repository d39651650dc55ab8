/**
 * The database remembers a digest of the secret key it is used with (one row, id 1). boot.ts
 * derives the digest and stops the start on 'mismatch': an instance that comes up with another
 * key (a second host whose DATA_DIR generated its own, a restore without the key) would
 * otherwise start and then refuse the API tokens, deletion links and signed links made with
 * the first key, one client at a time.
 */
import type { Db } from './database.ts';

export type KeyCheck = 'recorded' | 'matches' | 'replaced' | 'mismatch';

export async function checkKeyDigest(
  db: Db,
  digest: string,
  options: {
    /** Let this key replace the recorded one (ACCEPT_NEW_SECRET_KEY). */
    acceptNew: boolean;
    now: Date;
    /**
     * Whether this key opens an API token stored in the database: how a database that has no
     * digest yet (one from before the check) is checked before this key's digest is recorded.
     */
    opensToken: (encrypted: string) => boolean;
  },
): Promise<KeyCheck> {
  const recorded = () =>
    db.selectFrom('key_check').select('digest').where('id', '=', 1).executeTakeFirst();
  const recordedAt = options.now.toISOString();
  let row = await recorded();
  if (!row) {
    if (!options.acceptNew) {
      const user = await db.selectFrom('users').select('api_token_encrypted').executeTakeFirst();
      if (user && !options.opensToken(user.api_token_encrypted)) return 'mismatch';
    }
    const inserted = await db
      .insertInto('key_check')
      .values({ id: 1, digest, recorded_at: recordedAt })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return 'recorded';
    // Another instance starting at the same moment recorded its key first.
    row = await recorded();
    if (!row) throw new Error('key_check: a row was neither inserted nor found');
  }
  if (row.digest === digest) return 'matches';
  if (!options.acceptNew) return 'mismatch';
  await db
    .updateTable('key_check')
    .set({ digest, recorded_at: recordedAt })
    .where('id', '=', 1)
    .execute();
  return 'replaced';
}
