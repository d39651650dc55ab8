/** The tag filter of the upload list (GET /api/uploads?tag=): with search, type, sorts and pages. */
import { SORTS, type Sort } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import type { NewUploadRow } from '../../db/schema.ts';
import { tagSearchText } from '../../db/search.ts';
import { createTag, put, tagUpload } from '../../../test/tags.ts';
import { uploadRow } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;
type Listed = { uploads: { id: string; originalFilename: string }[]; total: number };

async function list(auth: Auth, query: string): Promise<Listed> {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/uploads?${query}`, headers: auth });
  expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
  return res.json();
}

/** What a listing should hold: the matches in the sort's order (every key distinct). */
type Item = { id: string; name: string; group: string; size: number; views: number; at: number };
const KEYS: Record<Sort, (i: Item) => number> = {
  newest: (i) => -i.at,
  oldest: (i) => i.at,
  largest: (i) => -i.size,
  smallest: (i) => i.size,
  'most-viewed': (i) => -i.views,
};
const sorted = (items: Item[], sort: Sort) =>
  [...items].sort((a, b) => KEYS[sort](a) - KEYS[sort](b));

describe('GET /api/uploads?tag=', () => {
  const KINDS = [
    ['png', 'image/png', 'images'],
    ['pdf', 'application/pdf', 'documents'],
    ['mp4', 'video/mp4', 'videos'],
    ['zip', 'application/zip', 'archives'],
  ] as const;
  let me: { auth: Auth };
  let tagId: string;
  let otherTagId: string;
  const tagged: Item[] = [];
  const all: Item[] = [];

  beforeAll(async () => {
    me = await signIn(ctx);
    tagId = (await createTag(ctx, me.auth, 'picked')).id;
    otherTagId = (await createTag(ctx, me.auth, 'other')).id;
    for (let i = 0; i < 14; i++) {
      const [ext, mime, group] = KINDS[i % 4]!;
      const name = `${i % 3 === 0 ? 'moon' : 'sun'}-${i}.${ext}`;
      const size = 100 + ((i * 3) % 14) * 10;
      const up = await put(ctx, me.auth, name, size, mime);
      const item = { id: up.id, name, group, size, views: (i * 5) % 14, at: i };
      all.push(item);
      if (i % 7 !== 3) {
        tagged.push(item);
        await tagUpload(ctx, me.auth, tagId, up.id);
      }
      if (i % 2 === 0) await tagUpload(ctx, me.auth, otherTagId, up.id);
      for (let v = 0; v < item.views; v++) {
        await ctx.app.inject({ method: 'GET', url: `/${up.shortCode}` });
      }
      ctx.clock.advance(1000);
    }
    // Every view is committed before the listing is read.
    await vi.waitFor(async () => {
      const row = await ctx.handle.db
        .selectFrom('uploads')
        .select((eb) => eb.fn.sum<number>('views').as('n'))
        .where(
          'id',
          'in',
          all.map((i) => i.id),
        )
        .executeTakeFirstOrThrow();
      expect(Number(row.n)).toBe(all.reduce((s, i) => s + i.views, 0));
    });
  });

  const names = (body: Listed) => body.uploads.map((u) => u.originalFilename);

  it('lists only the tagged uploads, in each of the five sorts', async () => {
    expect(tagged).toHaveLength(12);
    for (const sort of SORTS) {
      const body = await list(me.auth, `tag=${tagId}&sort=${sort}&limit=100`);
      expect(body.total, sort).toBe(12);
      expect(names(body), sort).toEqual(sorted(tagged, sort).map((i) => i.name));
    }
  });

  it('combines with search and type, in each sort, and counts right', async () => {
    const cases: [string, (i: Item) => boolean][] = [
      ['type=images', (i) => i.group === 'images'],
      ['type=documents', (i) => i.group === 'documents'],
      ['search=sun', (i) => i.name.includes('sun')],
      ['search=MOON', (i) => i.name.includes('moon')],
      // Shorter than a trigram: a plain scan.
      ['search=-1', (i) => i.name.includes('-1')],
      ['search=sun&type=videos', (i) => i.name.includes('sun') && i.group === 'videos'],
      ['search=moon&type=archives', (i) => i.name.includes('moon') && i.group === 'archives'],
      ['search=nowhere', () => false],
    ];
    for (const [query, match] of cases) {
      const expected = tagged.filter(match);
      for (const sort of SORTS) {
        const body = await list(me.auth, `tag=${tagId}&${query}&sort=${sort}`);
        expect(body.total, `${query} ${sort}`).toBe(expected.length);
        expect(names(body), `${query} ${sort}`).toEqual(sorted(expected, sort).map((i) => i.name));
      }
    }
    // Another tag of the same user: its own uploads.
    const other = await list(me.auth, `tag=${otherTagId}&sort=oldest`);
    expect(names(other)).toEqual(all.filter((_, n) => n % 2 === 0).map((i) => i.name));
  });

  it('pages: page 2 holds the rest, the total stays', async () => {
    for (const sort of SORTS) {
      const expected = sorted(tagged, sort).map((i) => i.name);
      const page1 = await list(me.auth, `tag=${tagId}&sort=${sort}&limit=10`);
      const page2 = await list(me.auth, `tag=${tagId}&sort=${sort}&limit=10&page=2`);
      expect(page1).toMatchObject({ total: 12, page: 1, limit: 10 });
      expect(page2).toMatchObject({ total: 12, page: 2, limit: 10 });
      expect(names(page1)).toEqual(expected.slice(0, 10));
      expect(names(page2)).toEqual(expected.slice(10));
    }
    expect(await list(me.auth, `tag=${tagId}&limit=10&page=3`)).toMatchObject({
      uploads: [],
      total: 12,
    });
  });

  it("answers 404 for another user's tag and an unknown one; tag= alone filters nothing", async () => {
    const stranger = await signIn(ctx);
    const theirTag = await createTag(ctx, stranger.auth, 'theirs');
    for (const [auth, id] of [
      [me.auth, theirTag.id],
      [stranger.auth, tagId],
      [me.auth, 'no-such-tag'],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/uploads?tag=${id}&search=sun&type=images`,
        headers: auth,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', message: 'Tag not found' });
    }
    expect((await list(me.auth, 'tag=')).total).toBe(14);
    expect(names(await list(me.auth, 'tag=&sort=oldest&type=images'))).toEqual(
      all.filter((i) => i.group === 'images').map((i) => i.name),
    );
    const bad = await ctx.app.inject({
      method: 'GET',
      url: '/api/uploads?tag=not%20an%20id',
      headers: me.auth,
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('a tag on more than a thousand uploads', () => {
  it('lists, counts and pages them in every sort (the many-matches plan)', async () => {
    const me = await signIn(ctx);
    const neighbour = await signIn(ctx);
    const tag = await createTag(ctx, me.auth, 'bulk');
    const theirTag = await createTag(ctx, neighbour.auth, 'bulk');
    const start = Date.parse('2026-01-01T00:00:00Z');
    const rows = Array.from({ length: 1500 }, (_, i) => {
      const image = i % 2 === 0;
      return uploadRow(me.user.id, {
        original_filename: `${i % 10 === 1 ? 'hay' : 'needle'}-${i}.${image ? 'png' : 'pdf'}`,
        mime_type: image ? 'image/png' : 'application/pdf',
        file_type: image ? 'images' : 'documents',
        size: (i * 3) % 1501,
        views: (i * 7) % 1500,
        created_at: new Date(start + i * 1000).toISOString(),
      });
    });
    const theirs = Array.from({ length: 300 }, (_, i) =>
      uploadRow(neighbour.user.id, { original_filename: `needle-${i}.png` }),
    );
    const isTagged = (i: number) => i % 5 !== 0;
    // A tag's rows carry their upload's type group and search text (as tagging copies them).
    const link = (tagId: string, r: NewUploadRow) => ({
      tag_id: tagId,
      upload_id: r.id,
      file_type: r.file_type,
      body: tagSearchText(r.original_filename, r.vanity_url ?? null),
    });
    const links = [
      ...rows.filter((_, i) => isTagged(i)).map((r) => link(tag.id, r)),
      ...theirs.map((r) => link(theirTag.id, r)),
    ];
    const db = ctx.handle.db;
    for (let i = 0; i < rows.length; i += 250) {
      await db
        .insertInto('uploads')
        .values(rows.slice(i, i + 250))
        .execute();
    }
    await db.insertInto('uploads').values(theirs).execute();
    for (let i = 0; i < links.length; i += 250) {
      await db
        .insertInto('upload_tags')
        .values(links.slice(i, i + 250))
        .execute();
    }
    const items = rows.map((r, i): Item => ({
      id: r.id,
      name: r.original_filename,
      group: r.file_type,
      size: Number(r.size),
      views: Number(r.views),
      at: i,
    }));
    const mine = items.filter((_, i) => isTagged(i));
    const ids = (body: Listed) => body.uploads.map((u) => u.id);

    for (const sort of SORTS) {
      const expected = sorted(mine, sort).map((i) => i.id);
      const page1 = await list(me.auth, `tag=${tag.id}&sort=${sort}&limit=100`);
      expect(page1.total, sort).toBe(1200);
      expect(ids(page1), sort).toEqual(expected.slice(0, 100));
      const page3 = await list(me.auth, `tag=${tag.id}&sort=${sort}&limit=100&page=3`);
      expect(ids(page3), sort).toEqual(expected.slice(200, 300));
    }
    // Search with over a thousand tagged matches; and a type with fewer.
    const needles = mine.filter((i) => i.name.startsWith('needle'));
    expect(needles).toHaveLength(1050);
    for (const sort of ['newest', 'most-viewed'] as const) {
      const body = await list(me.auth, `tag=${tag.id}&search=needle&sort=${sort}&limit=100`);
      expect(body.total, sort).toBe(1050);
      expect(ids(body), sort).toEqual(
        sorted(needles, sort)
          .slice(0, 100)
          .map((i) => i.id),
      );
    }
    const short = await list(me.auth, `tag=${tag.id}&search=e-&sort=smallest&limit=100`);
    expect(short.total).toBe(1050);
    expect(ids(short)).toEqual(
      sorted(needles, 'smallest')
        .slice(0, 100)
        .map((i) => i.id),
    );
    const images = mine.filter((i) => i.group === 'images');
    const imagesPage = await list(me.auth, `tag=${tag.id}&type=images&sort=largest&limit=100`);
    expect(imagesPage.total).toBe(600);
    expect(ids(imagesPage)).toEqual(
      sorted(images, 'largest')
        .slice(0, 100)
        .map((i) => i.id),
    );
    const docs = needles.filter((i) => i.group === 'documents');
    const page4 = await list(
      me.auth,
      `tag=${tag.id}&search=needle&type=documents&sort=oldest&page=4&limit=100`,
    );
    expect(page4.total).toBe(450);
    expect(ids(page4)).toEqual(docs.slice(300, 400).map((i) => i.id));

    // The neighbour's tag of the same name: only the neighbour's uploads.
    expect((await list(neighbour.auth, `tag=${theirTag.id}&search=needle`)).total).toBe(300);
    const foreign = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads?tag=${theirTag.id}`,
      headers: me.auth,
    });
    expect(foreign.statusCode).toBe(404);
  });
});
