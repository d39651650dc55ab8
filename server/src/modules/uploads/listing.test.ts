/** Listing uploads: filters, search, sorts and pages, also with many uploads. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { signIn } from '../../../test/users.ts';
import { uploadFile, uploadRow } from '../../../test/uploads.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
});
afterAll(() => ctx.close());

/** GET /api/uploads as the given user; expects 200 and answers the body. */
async function listAs(auth: Record<string, string>, query: string) {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/uploads?${query}`, headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('GET /api/uploads', () => {
  let auth: Record<string, string>;
  beforeAll(async () => {
    ({ auth } = await signIn(ctx));
    const files: [string, string, number][] = [
      ['cat.png', 'image/png', 300],
      ['Dog Photo.JPG', 'image/jpeg', 100],
      ['clip.mp4', 'video/mp4', 500],
      ['report.pdf', 'application/pdf', 200],
      ['backup.zip', 'application/zip', 400],
      ['100%_done.txt', 'text/plain', 50],
      ['raw.bin', 'application/octet-stream', 10],
    ];
    for (const [filename, contentType, size] of files) {
      const res = await uploadFile(ctx, auth, { filename, contentType, data: Buffer.alloc(size) });
      expect(res.statusCode).toBe(201);
      ctx.clock.advance(1000);
    }
    const cat = await list('search=cat');
    await ctx.app.inject({
      method: 'PATCH',
      url: `/api/uploads/${cat.uploads[0].id}`,
      headers: auth,
      payload: { vanityUrl: 'kitty-pic' },
    });
    // Views: clip 2, report 1.
    const all = await list('');
    const byName = (n: string) =>
      all.uploads.find((u: { originalFilename: string }) => u.originalFilename === n);
    for (const [name, n] of [
      ['clip.mp4', 2],
      ['report.pdf', 1],
    ] as const) {
      for (let i = 0; i < n; i++)
        await ctx.app.inject({ method: 'GET', url: `/${byName(name).shortCode}` });
    }
    await ctx.modules.links.service.flushViews();
  });

  const list = (query: string) => listAs(auth, query);
  const names = (body: { uploads: { originalFilename: string }[] }) =>
    body.uploads.map((u) => u.originalFilename);

  it("lists only the caller's uploads, newest first, with paging defaults", async () => {
    const body = await list('');
    expect(body).toMatchObject({ total: 7, page: 1, limit: 20 });
    expect(names(body)).toEqual([
      'raw.bin',
      '100%_done.txt',
      'backup.zip',
      'report.pdf',
      'clip.mp4',
      'Dog Photo.JPG',
      'cat.png',
    ]);
    const other = await signIn(ctx);
    const theirs = await ctx.app.inject({
      method: 'GET',
      url: '/api/uploads',
      headers: other.auth,
    });
    expect(theirs.json().total).toBe(0);
  });

  it('sorts oldest, largest, smallest and most-viewed', async () => {
    expect(names(await list('sort=oldest'))[0]).toBe('cat.png');
    expect(names(await list('sort=largest')).slice(0, 2)).toEqual(['clip.mp4', 'backup.zip']);
    expect(names(await list('sort=smallest')).slice(0, 2)).toEqual(['raw.bin', '100%_done.txt']);
    expect(names(await list('sort=most-viewed')).slice(0, 2)).toEqual(['clip.mp4', 'report.pdf']);
  });

  it('filters by file type group', async () => {
    expect(names(await list('type=images')).sort()).toEqual(['Dog Photo.JPG', 'cat.png']);
    expect(names(await list('type=videos'))).toEqual(['clip.mp4']);
    expect(names(await list('type=documents')).sort()).toEqual(['100%_done.txt', 'report.pdf']);
    expect(names(await list('type=archives'))).toEqual(['backup.zip']);
    expect((await list('type=')).total).toBe(7);
  });

  it('searches filename and vanity URL case-insensitively, with % and _ taken literally', async () => {
    expect(names(await list('search=DOG'))).toEqual(['Dog Photo.JPG']);
    expect(names(await list('search=kitty'))).toEqual(['cat.png']);
    expect(names(await list('search=%25'))).toEqual(['100%_done.txt']);
    expect(names(await list('search=_'))).toEqual(['100%_done.txt']);
    expect(names(await list('search=0%25_D'))).toEqual(['100%_done.txt']);
    expect(names(await list('search=%22cat'))).toEqual([]);
    expect(names(await list('search=ip.zi'))).toEqual([]);
    expect(names(await list('search=up.zi'))).toEqual(['backup.zip']);
    expect((await list('search=zzz')).total).toBe(0);
    expect(names(await list('search=p&type=images&sort=oldest'))).toEqual([
      'cat.png',
      'Dog Photo.JPG',
    ]);
  });

  it('pages with limit 10-100', async () => {
    const page1 = await list('limit=10&page=1&sort=oldest');
    expect(page1.uploads).toHaveLength(7);
    const page2 = await list('limit=10&page=2');
    expect(page2).toMatchObject({ uploads: [], total: 7, page: 2, limit: 10 });
    for (const bad of [
      'limit=5',
      'limit=101',
      'page=0',
      'sort=random',
      'type=music',
      'search=a%00b',
    ]) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/uploads?${bad}`,
        headers: auth,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('validation_error');
    }
  });
});

describe('searching many uploads', () => {
  /** Rows written straight to the table: thousands of HTTP uploads would only slow the test. */
  async function seed(userId: string, count: number, name: (i: number) => string) {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const rows = Array.from({ length: count }, (_, i) => {
      const image = i % 2 === 0;
      return uploadRow(userId, {
        original_filename: `${name(i)}.${image ? 'png' : 'pdf'}`,
        mime_type: image ? 'image/png' : 'application/pdf',
        file_type: image ? 'images' : 'documents',
        size: i,
        views: count - i,
        created_at: new Date(start + i * 1000).toISOString(),
      });
    });
    for (let i = 0; i < rows.length; i += 200) {
      await ctx.handle.db
        .insertInto('uploads')
        .values(rows.slice(i, i + 200))
        .execute();
    }
  }

  it("counts and pages a term with over a thousand matches, never another owner's", async () => {
    const me = await signIn(ctx);
    const neighbour = await signIn(ctx);
    // 1,500 of mine: every third one has "Needle" in its name (500), half of those images.
    await seed(me.user.id, 1500, (i) => (i % 3 === 0 ? `hay-Needle-${i}` : `hay-${i}`));
    await seed(neighbour.user.id, 1200, (i) => `needle-${i}`);
    const list = listAs;

    const all = await list(me.auth, 'search=needle&limit=100');
    expect(all.total).toBe(500);
    expect(all.uploads).toHaveLength(100);
    expect(all.uploads[0].originalFilename).toBe('hay-Needle-1497.pdf');
    expect(
      all.uploads.every((u: { originalFilename: string }) => u.originalFilename.includes('Needle')),
    ).toBe(true);

    const images = await list(me.auth, 'search=needle&type=images&sort=most-viewed');
    expect(images.total).toBe(250);
    expect(images.uploads[0].originalFilename).toBe('hay-Needle-0.png');

    const theirs = await list(neighbour.auth, 'search=needle&sort=oldest&page=3&limit=100');
    expect(theirs.total).toBe(1200);
    expect(theirs.uploads[0].originalFilename).toBe('needle-200.png');
    expect((await list(neighbour.auth, 'search=needle&type=documents')).total).toBe(600);

    const nobody = await signIn(ctx);
    expect(await list(nobody.auth, 'search=needle')).toMatchObject({ total: 0, uploads: [] });

    // Deleted and renamed uploads leave the search index with their rows.
    const gone = all.uploads.slice(0, 2).map((u: { id: string }) => u.id);
    const deleted = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads/batch/delete',
      headers: me.auth,
      payload: { uploadIds: gone },
    });
    expect(deleted.json()).toEqual({ deletedCount: 2 });
    await ctx.handle.db
      .updateTable('uploads')
      .set({ original_filename: 'renamed.png' })
      .where('id', '=', all.uploads[2].id)
      .execute();
    expect((await list(me.auth, 'search=needle')).total).toBe(497);
    expect((await list(me.auth, 'search=renamed')).total).toBe(1);
  });
});
