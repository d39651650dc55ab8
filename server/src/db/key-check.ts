/**
 * The database remembers a digest of the secret key it is used with. An instance that comes up
 * with another key (a second host whose DATA_DIR generated its own, a restore without the key)
 * stops with a message, instead of starting and then refusing the API tokens, deletion links and
 * signed links made with the first key, one client at a time.
 */
import crypto from 'node:crypto';
import { ConfigError } from '../config.ts';
import type { Db } from './database.ts';

const ROW = 'secret-key';

/** A digest of the key, never the key: an HMAC under the key of a fixed text. */
export function keyDigest(secretKey: string): string {
  return crypto.createHmac('sha256', secretKey).update('upshot secret key check').digest('hex');
}

/**
 * 'recorded' on a database that had no key yet (the first start, or the first after this
 * check was added), 'matches' when it is the same key, 'replaced' when acceptNew let another
 * key take its place; otherwise throws ConfigError naming where the key came from.
 */
export async function checkSecretKey(
  db: Db,
  secretKey: string,
  options: { source: string; acceptNew: boolean; now: Date },
): Promise<'recorded' | 'matches' | 'replaced'> {
  const digest = keyDigest(secretKey);
  const recordedAt = options.now.toISOString();
  const inserted = await db
    .insertInto('key_check')
    .values({ name: ROW, digest, recorded_at: recordedAt })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return 'recorded';
  const row = await db
    .selectFrom('key_check')
    .select('digest')
    .where('name', '=', ROW)
    .executeTakeFirstOrThrow();
  if (row.digest === digest) return 'matches';
  if (options.acceptNew) {
    await db
      .updateTable('key_check')
      .set({ digest, recorded_at: recordedAt })
      .where('name', '=', ROW)
      .execute();
    return 'replaced';
  }
  throw new ConfigError(
    [
      `The secret key (${options.source}) is not the one this database is used with: API tokens,`,
      '  deletion links and signed links made with that key would be refused here.',
      '  Give every instance the same SECRET_KEY: the key the first instance was given, or the one',
      '  it generated into its DATA_DIR/secret.key (docs/DEPLOYMENT.md, "What the instances must share").',
      '  To change the key on purpose (every API token and deletion link made so far stops',
      '  working), start once with ACCEPT_NEW_SECRET_KEY=true.',
    ].join('\n'),
  );
}
