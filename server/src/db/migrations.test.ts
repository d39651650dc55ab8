import crypto from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseEachTest } from '../../test/context.ts';
import { uploadRow } from '../../test/uploads.ts';
import type { NewUploadRow } from './schema.ts';
import { createLinksRepository } from '../modules/links/repository.ts';
import { createUploadsRepository } from '../modules/uploads/repository.ts';
import { MIGRATIONS, migrateTo, migrateToLatest } from './migrate.ts';
import { uploadSearch } from './search.ts';

const fresh = freshDatabaseEachTest();

/** The schema as it was at an earlier migration: rows are written as plain objects. */
const legacy = () => fresh().db as unknown as Kysely<Record<string, Record<string, unknown>>>;

function legacyUser(name: string, email = `${name}@example.com`) {
  return {
    id: crypto.randomUUID(),
    email,
    username: name,
    role: 'user',
    is_active: 1,
    disk_quota: 1024,
    password_hash: 'x',
    api_token_encrypted: `enc-${name}`,
    api_token_digest: `digest-${name}`,
    created_at: new Date().toISOString(),
  };
}

/** An uploads row as it was before migration 0004 (no thumbnail state yet). */
function legacyUpload(userId: string, fields: Partial<NewUploadRow> = {}) {
  const { thumbnail_status, ...row } = { ...uploadRow(userId), ...fields };
  return 'thumbnail_status' in fields ? { ...row, thumbnail_status } : row;
}

async function tableExists(name: string): Promise<boolean> {
  const tables = await fresh().db.introspection.getTables();
  return tables.some((t) => t.name === name);
}

describe('the migration runner', () => {
  it('applies a failing migration not at all, on either engine', async () => {
    await migrateToLatest(fresh());
    const broken: Migration = {
      async up(db) {
        await db.schema.createTable('half_done').addColumn('id', 'text').execute();
        await sql`insert into half_done (id) values ('x')`.execute(db);
        await sql`update users set username = 'renamed'`.execute(db);
        throw new Error('crash in the middle');
      },
    };
    await legacy().insertInto('users').values(legacyUser('kept')).execute();
    await expect(
      migrateToLatest(fresh(), { ...MIGRATIONS, '9999-broken': broken }),
    ).rejects.toThrow('crash in the middle');
    expect(await tableExists('half_done')).toBe(false);
    const users = await fresh().db.selectFrom('users').select('username').execute();
    expect(users.map((u) => u.username)).toEqual(['kept']);
    // It was not recorded as applied: fixed, it runs.
    const applied = await fresh()
      .db.selectFrom('kysely_migration' as never)
      .selectAll()
      .execute();
    expect(JSON.stringify(applied)).not.toContain('9999');
  });
});

describe('0003-search-owner', () => {
  it('indexes uploads made before it, and keeps indexing after', async () => {
    await migrateTo(fresh(), '0002-uploads');
    const [a, b] = [legacyUser('ann'), legacyUser('bob')];
    await legacy().insertInto('users').values([a, b]).execute();
    const upload = (userId: string, filename: string, vanity: string | null = null) =>
      legacyUpload(userId, { original_filename: filename, vanity_url: vanity });
    await legacy()
      .insertInto('uploads')
      .values([
        upload(a.id, 'Sunset.png'),
        upload(a.id, 'x.png', 'sunset-vanity'),
        upload(b.id, 'sunset-too.png'),
      ])
      .execute();

    expect(await migrateToLatest(fresh())).toContain('0003-search-owner');
    await legacy()
      .insertInto('uploads')
      .values({ ...upload(b.id, 'another SUNSET.png'), thumbnail_status: 'none' })
      .execute();

    const repo = createUploadsRepository(fresh().db, uploadSearch(fresh().dialect));
    const search = (userId: string, term: string) =>
      repo.list({ userId, search: term, sort: 'newest' }, { page: 1, limit: 20 });
    expect((await search(a.id, 'sunset')).total).toBe(2);
    expect((await search(b.id, 'sunset')).total).toBe(2);
    expect((await search(b.id, 'another')).rows.map((r) => r.original_filename)).toEqual([
      'another SUNSET.png',
    ]);
    expect((await search(a.id, 'vanity')).total).toBe(1);
  });
});

describe('0004-hardening', () => {
  it('normalizes emails and usernames beyond ASCII, the same on both engines', async () => {
    await migrateTo(fresh(), '0003-search-owner');
    const unal = legacyUser('Ünal', 'Ünal@Example.com');
    await legacy().insertInto('users').values(unal).execute();
    await migrateToLatest(fresh());
    const row = await fresh()
      .db.selectFrom('users')
      .select(['email', 'email_key', 'username_key'])
      .where('id', '=', unal.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      email: 'Ünal@Example.com',
      email_key: 'ünal@example.com',
      username_key: 'ünal',
    });
  });

  it('stops, naming the accounts, when two emails differ only in case beyond ASCII', async () => {
    await migrateTo(fresh(), '0003-search-owner');
    // SQLite's lower() folded only ASCII, so it let these two in.
    const first = legacyUser('one', 'Ünal@example.com');
    const second = legacyUser('two', 'ünal@example.com');
    await legacy().insertInto('users').values(first).execute();
    if (fresh().dialect === 'postgres') return; // PostgreSQL's lower() refused the second already
    await legacy().insertInto('users').values(second).execute();
    await expect(migrateToLatest(fresh())).rejects.toThrow(
      `Users ${first.id} and ${second.id} have the same email once case is ignored`,
    );
    expect(await tableExists('slugs')).toBe(false); // nothing of 0004 was applied
  });

  it('turns the thumbnail marker into a state and gives shadowed short codes new ones', async () => {
    await migrateTo(fresh(), '0003-search-owner');
    const owner = legacyUser('owner');
    await legacy().insertInto('users').values(owner).execute();
    const failed = legacyUpload(owner.id, { thumbnail_key: 'none' });
    const ready = legacyUpload(owner.id, { thumbnail_key: 't/aa/bb/aabbcc' });
    const pdf = legacyUpload(owner.id, { mime_type: 'application/pdf', file_type: 'documents' });
    const vanity = legacyUpload(owner.id, { vanity_url: 'Holiday' });
    const shadowed = legacyUpload(owner.id, { short_code: 'holiday' });
    await legacy().insertInto('uploads').values([failed, ready, pdf, vanity, shadowed]).execute();

    await migrateToLatest(fresh());
    const rows = await fresh()
      .db.selectFrom('uploads')
      .select(['id', 'thumbnail_status', 'thumbnail_key', 'short_code'])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(failed.id)).toMatchObject({ thumbnail_status: 'failed', thumbnail_key: null });
    expect(byId.get(ready.id)).toMatchObject({ thumbnail_status: 'ready' });
    expect(byId.get(pdf.id)).toMatchObject({ thumbnail_status: 'none' });
    expect(byId.get(vanity.id)).toMatchObject({ thumbnail_status: 'pending' });
    expect(byId.get(shadowed.id)!.short_code).not.toBe('holiday');

    const repo = createLinksRepository(fresh().db);
    expect((await repo.findLink('HOLIDAY'))?.id).toBe(vanity.id);
    expect((await repo.findLink(byId.get(shadowed.id)!.short_code))?.id).toBe(shadowed.id);
    expect((await repo.findLink(pdf.short_code))?.id).toBe(pdf.id);
  });
});

describe('0005-clean-names', () => {
  it('cleans names and types stored before they were checked on the way in', async () => {
    await migrateTo(fresh(), '0004-hardening');
    const owner = legacyUser('owner');
    await legacy()
      .insertInto('users')
      .values({ ...owner, email_key: owner.email, username_key: 'owner' })
      .execute();
    const listed = legacyUpload(owner.id, {
      original_filename: 'invoice\u202Egpj.exe',
      mime_type: 'image/png,image/svg+xml',
      thumbnail_status: 'pending',
    });
    const crlf = legacyUpload(owner.id, {
      mime_type: 'text/plain\r\nx-injected: 1',
      file_type: 'documents',
      thumbnail_status: 'none',
    });
    const fine = legacyUpload(owner.id, {
      original_filename: 'fine.png',
      thumbnail_status: 'pending',
    });
    await legacy().insertInto('uploads').values([listed, crlf, fine]).execute();

    expect(await migrateToLatest(fresh())).toContain('0005-clean-names');
    const rows = await fresh()
      .db.selectFrom('uploads')
      .select(['id', 'original_filename', 'mime_type', 'file_type'])
      .orderBy('id')
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(listed.id)).toMatchObject({
      original_filename: 'invoicegpj.exe',
      mime_type: 'application/octet-stream',
      file_type: 'other',
    });
    expect(byId.get(crlf.id)).toMatchObject({
      mime_type: 'application/octet-stream',
      file_type: 'other',
    });
    expect(byId.get(fine.id)).toMatchObject({
      original_filename: 'fine.png',
      mime_type: 'image/png',
    });
  });
});

describe('0012-drop-link-changes', () => {
  it('leaves nothing of the link cache: no tables, triggers or functions', async () => {
    await migrateToLatest(fresh());
    for (const table of ['link_changes', 'link_cache_leases', 'link_change_marks']) {
      expect(await tableExists(table), table).toBe(false);
    }
    if (fresh().dialect !== 'postgres') return;
    const triggers = await sql<{ tgname: string }>`
      select tgname from pg_trigger where not tgisinternal and tgname like '%link%'`.execute(
      fresh().db,
    );
    expect(triggers.rows).toEqual([]);
    const functions = await sql<{ proname: string }>`
      select proname from pg_proc where proname like 'upshot_%link%'`.execute(fresh().db);
    expect(functions.rows).toEqual([]);
  });
});

describe('0015-retired-slugs', () => {
  it("keeps every slug, with its upload's owner, and retires a deleted upload's", async () => {
    await migrateTo(fresh(), '0012-drop-link-changes');
    const owner = legacyUser('olga');
    await legacy().insertInto('users').values(owner).execute();
    const up = { ...uploadRow(owner.id), vanity_url: 'Old-Name' };
    await legacy().insertInto('uploads').values(up).execute();
    await legacy()
      .insertInto('slugs')
      .values([
        { slug: up.short_code, upload_id: up.id, kind: 'code' },
        { slug: 'old-name', upload_id: up.id, kind: 'vanity' },
      ])
      .execute();

    expect(await migrateToLatest(fresh())).toContain('0015-retired-slugs');
    const slugs = () => fresh().db.selectFrom('slugs').selectAll().orderBy('slug').execute();
    expect(await slugs()).toEqual(
      [
        {
          slug: up.short_code,
          upload_id: up.id,
          kind: 'code',
          owner_id: owner.id,
          released_at: null,
        },
        {
          slug: 'old-name',
          upload_id: up.id,
          kind: 'vanity',
          owner_id: owner.id,
          released_at: null,
        },
      ].sort((a, b) => (a.slug < b.slug ? -1 : 1)),
    );
    // Deleted by anyone, even by hand: the slugs stay, retired.
    await fresh().db.deleteFrom('uploads').where('id', '=', up.id).execute();
    expect((await slugs()).map((s) => [s.slug, s.upload_id])).toEqual(
      [
        [up.short_code, null],
        ['old-name', null],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    );
  });
});
