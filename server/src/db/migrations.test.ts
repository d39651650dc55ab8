import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, uploadRow, type TestDatabase } from '../../test/harness.ts';
import { createUploadsRepository } from '../modules/uploads/repository.ts';
import { openDatabase, type DatabaseHandle } from './database.ts';
import { migrateTo, migrateToLatest } from './migrate.ts';
import { uploadSearch } from './search.ts';

let dataDir: string;
let database: TestDatabase;
let handle: DatabaseHandle;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-migrate-'));
  database = await createTestDatabase();
  handle = openDatabase({ dataDir, databaseUrl: database.url });
});
afterAll(async () => {
  await handle.db.destroy();
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('0003-search-owner', () => {
  it('indexes uploads made before it, and keeps indexing after', async () => {
    await migrateTo(handle, '0002-uploads');
    const now = new Date().toISOString();
    const user = (name: string) => ({
      id: crypto.randomUUID(),
      email: `${name}@example.com`,
      username: name,
      role: 'user' as const,
      is_active: 1 as const,
      disk_quota: 1024,
      password_hash: 'x',
      api_token_encrypted: `enc-${name}`,
      api_token_digest: `digest-${name}`,
      created_at: now,
    });
    const [a, b] = [user('ann'), user('bob')];
    await handle.db.insertInto('users').values([a, b]).execute();
    const upload = (userId: string, filename: string, vanity: string | null = null) =>
      uploadRow(userId, { original_filename: filename, vanity_url: vanity });
    await handle.db
      .insertInto('uploads')
      .values([
        upload(a.id, 'Sunset.png'),
        upload(a.id, 'x.png', 'sunset-vanity'),
        upload(b.id, 'sunset-too.png'),
      ])
      .execute();

    expect(await migrateToLatest(handle)).toContain('0003-search-owner');
    await handle.db.insertInto('uploads').values(upload(b.id, 'another SUNSET.png')).execute();

    const repo = createUploadsRepository(handle.db, uploadSearch(handle.dialect));
    const search = (userId: string, term: string) =>
      repo.list({ userId, search: term, sort: 'newest', offset: 0, limit: 20 });
    expect((await search(a.id, 'sunset')).total).toBe(2);
    expect((await search(b.id, 'sunset')).total).toBe(2);
    expect((await search(b.id, 'another')).rows.map((r) => r.original_filename)).toEqual([
      'another SUNSET.png',
    ]);
    expect((await search(a.id, 'vanity')).total).toBe(1);
  });
});
