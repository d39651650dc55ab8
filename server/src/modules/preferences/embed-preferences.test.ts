/**
 * linkStyle and the embed preferences: their defaults and refusals, an upload's previewUrl
 * beside its url (which stays the file whatever linkStyle says), and the uploader's title
 * template, site name and colour in its preview pages' tags and oEmbed answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { uploadWith, visitor } from '../../../test/links.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Auth = Record<string, string>;
const patch = (auth: Auth, payload: unknown) =>
  ctx.app.inject({
    method: 'PATCH',
    url: '/api/preferences',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

describe('linkStyle and the embed preferences', () => {
  it('are saved as sent (the colour in lower case, the texts trimmed)', async () => {
    const { auth } = await signIn(ctx);
    const res = await patch(auth, {
      linkStyle: 'preview',
      embedTitle: '  {filename} ({size}) by {username}, {date} ',
      embedSiteName: ' Pia’s files ',
      embedColor: '#12AB9f',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().preferences).toMatchObject({
      linkStyle: 'preview',
      embedTitle: '{filename} ({size}) by {username}, {date}',
      embedSiteName: 'Pia’s files',
      embedColor: '#12ab9f',
    });
  });

  it('refuses a bad value, naming the field, and changes nothing', async () => {
    const { auth } = await signIn(ctx);
    const bad: [Record<string, unknown>, string][] = [
      [{ linkStyle: 'short' }, 'linkStyle'],
      [{ linkStyle: null }, 'linkStyle'],
      [{ embedTitle: '' }, 'embedTitle'],
      [{ embedTitle: '   ' }, 'embedTitle'],
      [{ embedTitle: '{name}' }, 'embedTitle'],
      [{ embedTitle: '{filename} {FILENAME}' }, 'embedTitle'],
      [{ embedTitle: 'x'.repeat(201) }, 'embedTitle'],
      [{ embedTitle: 'a\u0000b' }, 'embedTitle'],
      [{ embedSiteName: '' }, 'embedSiteName'],
      [{ embedSiteName: 'x'.repeat(101) }, 'embedSiteName'],
      [{ embedColor: 'red' }, 'embedColor'],
      [{ embedColor: '#abc' }, 'embedColor'],
      [{ embedColor: '#abcdefa' }, 'embedColor'],
      [{ embedColor: '12ab9f' }, 'embedColor'],
    ];
    for (const [payload, field] of bad) {
      const res = await patch(auth, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toContain(field);
    }
    const now = await ctx.app.inject({ method: 'GET', url: '/api/preferences', headers: auth });
    expect(now.json().preferences).toMatchObject({
      linkStyle: 'raw',
      embedTitle: '{filename}',
      embedSiteName: 'Upshot',
      embedColor: '#0a0a0a',
    });
  });
});

describe('what they change', () => {
  it("gives every upload its previewUrl, and leaves its url the file's whatever linkStyle says", async () => {
    const { auth } = await signIn(ctx);
    expect((await patch(auth, { linkStyle: 'preview' })).statusCode).toBe(200);
    const res = await uploadFile(ctx, auth, {
      filename: 'a.txt',
      contentType: 'text/plain',
      data: Buffer.from('a'),
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    const code = body.upload.shortCode;
    expect(body.url).toBe(`${ctx.config.publicUrl}/${code}`);
    expect(body.previewUrl).toBe(`${ctx.config.publicUrl}/v/${code}`);
    expect(body.upload.url).toBe(`${ctx.config.publicUrl}/${code}`);
    expect(body.upload.previewUrl).toBe(`${ctx.config.publicUrl}/v/${code}`);
    // A custom URL is the page's slug too.
    const renamed = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/uploads/${body.upload.id}`,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ vanityUrl: 'my-notes' }),
    });
    expect(renamed.json().previewUrl).toBe(`${ctx.config.publicUrl}/v/my-notes`);
    expect((await visitor(ctx).get('/v/my-notes')).statusCode).toBe(200);
  });

  it("puts the uploader's title, site name and colour in the page's tags and oEmbed", async () => {
    const { auth, user } = await signIn(ctx);
    const settings = {
      embedTitle: '{filename} · {size} · {date} · {username} · {unknown',
      embedSiteName: 'Pia <& Co>',
      embedColor: '#FF8800',
    };
    expect((await patch(auth, settings)).statusCode).toBe(200);
    const up = await uploadWith(ctx, auth, {}, { filename: 'a<b>.txt', data: Buffer.alloc(2048) });
    const page = await visitor(ctx).get(`/v/${up.shortCode}`);
    const date = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(up.createdAt));
    const title = `a<b>.txt · 2 KB · ${date} · ${user.username} · {unknown`;
    const escaped = title.replace(/</g, '&lt;').replace(/>/g, '&gt;');
    expect(page.body).toContain(`<meta property="og:title" content="${escaped}">`);
    expect(page.body).toContain(`<title>${escaped}</title>`);
    expect(page.body).toContain('<meta property="og:site_name" content="Pia &lt;&amp; Co&gt;">');
    expect(page.body).toContain('<meta name="theme-color" content="#ff8800">');
    const oembed = await ctx.app.inject({
      method: 'GET',
      url: `/api/oembed?url=${encodeURIComponent(`${ctx.config.publicUrl}/v/${up.shortCode}`)}`,
    });
    expect(oembed.json()).toMatchObject({ title, provider_name: 'Pia <& Co>', type: 'link' });
    // Another uploader's links keep the defaults.
    const other = await signIn(ctx);
    const theirs = await uploadWith(ctx, other.auth, {}, { filename: 'b.txt' });
    const plain = await visitor(ctx).get(`/v/${theirs.shortCode}`);
    expect(plain.body).toContain('<meta property="og:title" content="b.txt">');
    expect(plain.body).toContain('<meta property="og:site_name" content="Upshot">');
  });
});
