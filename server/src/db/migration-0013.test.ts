/**
 * Migration 0013 keeps each stored part's ETag. Parts of open sessions stored before it have
 * none, so they count as not received and are sent again; a completing session keeps its parts.
 * Migration 0016 gives sessions open before it their reservation of the quota.
 */
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseEachTest } from '../../test/context.ts';
import { migrateTo, migrateToLatest } from './migrate.ts';

const fresh = freshDatabaseEachTest();

/** The schema as it was at an earlier migration: rows are written as plain objects. */
const legacy = () => fresh().db as unknown as Kysely<Record<string, Record<string, unknown>>>;

/** A session of two 5-byte chunks, both stored, as 0011 kept them. */
async function legacySession(userId: string, status: 'open' | 'completing') {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await legacy()
    .insertInto('chunked_uploads')
    .values({
      id,
      user_id: userId,
      filename: 'a.bin',
      mime_type: 'application/octet-stream',
      total_size: 10,
      total_chunks: 2,
      chunk_size: 5,
      is_public: 1,
      storage_key: `u/ab/cd/${crypto.randomBytes(8).toString('hex')}`,
      multipart_id: crypto.randomUUID(),
      status,
      claimed_at: status === 'completing' ? now : null,
      created_at: now,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    })
    .execute();
  for (const chunk_index of [0, 1]) {
    await legacy()
      .insertInto('chunked_upload_parts')
      .values({ upload_id: id, chunk_index, size: 5, received_at: now, state: 'stored' })
      .execute();
  }
  return id;
}

describe('0013-part-etags', () => {
  it("drops open sessions' parts stored without an ETag and keeps a completing session's", async () => {
    await migrateTo(fresh(), '0011-link-changes');
    const userId = crypto.randomUUID();
    await legacy()
      .insertInto('users')
      .values({
        id: userId,
        email: 'a@example.com',
        email_key: 'a@example.com',
        username: 'a',
        username_key: 'a',
        role: 'user',
        is_active: 1,
        disk_quota: 1000,
        password_hash: 'x',
        api_token_encrypted: 'enc-a',
        api_token_digest: 'digest-a',
        created_at: new Date().toISOString(),
      })
      .execute();
    const open = await legacySession(userId, 'open');
    const completing = await legacySession(userId, 'completing');

    await migrateToLatest(fresh());
    const parts = await fresh()
      .db.selectFrom('chunked_upload_parts')
      .select(['upload_id', 'chunk_index', 'etag'])
      .orderBy('chunk_index')
      .execute();
    expect(parts).toEqual([
      { upload_id: completing, chunk_index: 0, etag: null },
      { upload_id: completing, chunk_index: 1, etag: null },
    ]);
    // The open session goes on: it takes its chunks again.
    const sessions = await fresh().db.selectFrom('chunked_uploads').select('id').execute();
    expect(sessions.map((s) => s.id).sort()).toEqual([open, completing].sort());
  });
});

describe('0016-session-reservations', () => {
  it('reserves for each unfinished session at least 4 KiB, summed on its owner', async () => {
    await migrateTo(fresh(), '0011-link-changes');
    const userId = crypto.randomUUID();
    await legacy()
      .insertInto('users')
      .values({
        id: userId,
        email: 'b@example.com',
        email_key: 'b@example.com',
        username: 'b',
        username_key: 'b',
        role: 'user',
        is_active: 1,
        disk_quota: 1000,
        password_hash: 'x',
        api_token_encrypted: 'enc-b',
        api_token_digest: 'digest-b',
        created_at: new Date().toISOString(),
      })
      .execute();
    await legacySession(userId, 'open');
    await legacySession(userId, 'completing');

    await migrateToLatest(fresh());
    const reserved = await fresh().db.selectFrom('chunked_uploads').select('reserved').execute();
    expect(reserved.map((r) => Number(r.reserved))).toEqual([4096, 4096]);
    const user = await fresh()
      .db.selectFrom('users')
      .select('disk_reserved')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(Number(user.disk_reserved)).toBe(8192);
  });
});
