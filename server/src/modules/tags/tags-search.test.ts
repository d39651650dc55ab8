/**
 * A search within a tag (read from the tag's own rows) finds what the plain search finds among
 * the tagged uploads: case aside, beyond ASCII, % and _ taken literally, vanity URLs set or
 * changed before or after tagging.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { createTag, put, tagUpload, type UploadJson } from '../../../test/tags.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;

describe('GET /api/uploads?tag=&search=', () => {
  let auth: Auth;
  let tagId: string;
  const made = new Map<string, UploadJson>();

  async function names(query: string): Promise<string[]> {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads?${query}&limit=100`,
      headers: auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ uploads: { originalFilename: string }[]; total: number }>();
    expect(body.total, query).toBe(body.uploads.length);
    return body.uploads.map((u) => u.originalFilename);
  }
  async function setVanity(name: string, vanityUrl: string | null) {
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/uploads/${made.get(name)!.id}`,
      headers: auth,
      payload: { vanityUrl },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  beforeAll(async () => {
    ({ auth } = await signIn(ctx));
    tagId = (await createTag(ctx, auth, 'everything')).id;
    for (const name of [
      'Ärger im Büro.png',
      'ÜBER.txt',
      'Straße.pdf',
      '100%_done.txt',
      'Dog Photo.JPG',
      'ΟΔΟΣ.txt',
      'Ω-omega.txt',
      'plain.bin',
      'other.bin',
      'untagged Ärger.png',
    ]) {
      made.set(name, await put(ctx, auth, name, 10));
      ctx.clock.advance(1000);
    }
    await setVanity('plain.bin', 'Kitty-Pic'); // before tagging
    await setVanity('other.bin', 'old-name');
    for (const [name, up] of made) {
      if (!name.startsWith('untagged')) await tagUpload(ctx, auth, tagId, up.id);
    }
    await setVanity('Dog Photo.JPG', 'Puppy'); // after tagging
    await setVanity('other.bin', 'new-name'); // changed after tagging
    await setVanity('Straße.pdf', 'temporary');
    await setVanity('Straße.pdf', null); // and removed
  });

  it('finds the vanity URLs as they are now', async () => {
    const tagged = (term: string) => names(`tag=${tagId}&search=${encodeURIComponent(term)}`);
    expect(await tagged('kitty')).toEqual(['plain.bin']);
    expect(await tagged('KITTY-PIC')).toEqual(['plain.bin']);
    expect(await tagged('puppy')).toEqual(['Dog Photo.JPG']);
    expect(await tagged('new-name')).toEqual(['other.bin']);
    expect(await tagged('old-name')).toEqual([]);
    expect(await tagged('temporary')).toEqual([]);
  });

  it('finds what the plain search finds, among the tagged uploads', async () => {
    const terms = [
      'ärger',
      'ÄRGER',
      'büro',
      'BÜRO',
      'über',
      'Über',
      'straße',
      'STRASSE',
      '%',
      '_',
      '0%_d',
      '%_',
      'dog',
      'PHOTO',
      'o p',
      '.jpg',
      'kitty',
      'puppy',
      'name',
      'οδοσ',
      'ω-o',
      'Ω-OMEGA',
      'txt',
      'zzz',
      're',
    ];
    // Compared all at once, so a failure names every term that differs.
    const tagged: Record<string, string[]> = {};
    const plain: Record<string, string[]> = {};
    for (const term of terms) {
      const q = `search=${encodeURIComponent(term)}`;
      plain[term] = (await names(q)).filter((n) => !n.startsWith('untagged'));
      tagged[term] = await names(`tag=${tagId}&${q}`);
      plain[`${term} (documents)`] = await names(`${q}&type=documents&sort=oldest`);
      tagged[`${term} (documents)`] = await names(`tag=${tagId}&${q}&type=documents&sort=oldest`);
    }
    expect(tagged).toEqual(plain);
    // The plain search itself: these at least must be found.
    expect(await names('search=%C3%A4rger')).toEqual(['untagged Ärger.png', 'Ärger im Büro.png']);
    expect(await names('search=0%25_d')).toEqual(['100%_done.txt']);
  });

  it('finds an upper-case Greek name by the same upper-case term (a final sigma)', async () => {
    // 'ΟΔΟΣ'.toLowerCase() is 'οδος' (final ς), but 'ΟΔΟΣ.txt'.toLowerCase() is 'οδοσ.txt'.
    expect(await names(`tag=${tagId}&search=${encodeURIComponent('ΟΔΟΣ')}`)).toEqual(['ΟΔΟΣ.txt']);
    // Typed in lower case, with the final sigma a Greek keyboard gives.
    expect(await names(`tag=${tagId}&search=${encodeURIComponent('οδος')}`)).toEqual(['ΟΔΟΣ.txt']);
    expect(await names(`tag=${tagId}&search=${encodeURIComponent('ΟΔΟΣ.TXT')}`)).toEqual([
      'ΟΔΟΣ.txt',
    ]);
  });
});
