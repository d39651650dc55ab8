/** Migration 0014 counts the tags of users made before it and charges their uploads anew. */
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseEachTest } from '../../test/context.ts';
import { uploadRow } from '../../test/uploads.ts';
import { migrateTo, migrateToLatest } from './migrate.ts';

const fresh = freshDatabaseEachTest();

/** The schema as it was at an earlier migration: rows are written as plain objects. */
const legacy = () => fresh().db as unknown as Kysely<Record<string, Record<string, unknown>>>;

function legacyUser(name: string, diskUsed: number) {
  return {
    id: crypto.randomUUID(),
    email: `${name}@example.com`,
    email_key: `${name}@example.com`,
    username: name,
    username_key: name,
    role: 'user',
    is_active: 1,
    disk_quota: 10_000_000,
    disk_used: diskUsed,
    password_hash: 'x',
    api_token_encrypted: `enc-${name}`,
    api_token_digest: `digest-${name}`,
    created_at: new Date().toISOString(),
  };
}

describe('0014-limits', () => {
  it('fills tag_count and charges each upload at least 4 KiB in disk_used', async () => {
    await migrateTo(fresh(), '0011-link-changes');
    // disk_used as it was kept before: the sum of the sizes.
    const ann = legacyUser('ann', 0 + 100 + 10_000);
    const idle = legacyUser('idle', 0);
    await legacy().insertInto('users').values([ann, idle]).execute();
    await legacy()
      .insertInto('uploads')
      .values([0, 100, 10_000].map((size) => uploadRow(ann.id, { size })))
      .execute();
    await legacy()
      .insertInto('tags')
      .values(
        ['a', 'b', 'c'].map((name) => ({
          id: crypto.randomUUID(),
          user_id: ann.id,
          name,
          name_key: name,
          created_at: new Date().toISOString(),
        })),
      )
      .execute();

    expect(await migrateToLatest(fresh())).toContain('0014-limits');
    const rows = await fresh()
      .db.selectFrom('users')
      .select(['username', 'tag_count', 'disk_used'])
      .orderBy('username')
      .execute();
    expect(rows.map((r) => [r.username, Number(r.tag_count), Number(r.disk_used)])).toEqual([
      ['ann', 3, 4096 + 4096 + 10_000],
      ['idle', 0, 0],
    ]);
  });
});
