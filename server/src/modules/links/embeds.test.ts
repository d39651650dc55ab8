/**
 * What a preview page tells chat apps: its OpenGraph and Twitter Card tags for each type, as
 * Discord's and Slack's crawlers fetch them (their user agents, no cookies), and nothing of a
 * private, password-protected, expired or used-up upload; the size of pictures and videos,
 * recorded with their thumbnails.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { uploadWith, visitor, type Auth } from '../../../test/links.ts';
import { testVideo } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { ffmpegAvailable } from '../uploads/thumbnails.ts';

const CRAWLERS = {
  discord: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
};
const withVideo = ffmpegAvailable() && ffmpegAvailable('ffprobe');

let ctx: TestContext;
let owner: Auth;
let png: Buffer;
beforeAll(async () => {
  ctx = await createTestContext();
  ({ auth: owner } = await signIn(ctx));
  png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#2a6' } })
    .png()
    .toBuffer();
});
afterAll(() => ctx.close());

const upload = (name: string, type: string, data: Buffer | string, fields = {}) =>
  uploadWith(ctx, owner, fields, { filename: name, contentType: type, data: Buffer.from(data) });

/** The page as a crawler fetches it: no cookies, its user agent, and its tags by key. */
async function crawl(slug: string, agent: string) {
  const res = await visitor(ctx, '198.51.100.77').get(`/v/${slug}`, { 'user-agent': agent });
  const tags = new Map<string, string>();
  const metas = /<meta (?:property|name)="((?:og|twitter):[^"]+)" content="([^"]*)">/g;
  for (const [, key, value] of res.body.matchAll(metas)) {
    tags.set(key!, value!.replace(/&amp;/g, '&'));
  }
  const oembed = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(
    res.body,
  );
  return { res, tags, oembed: oembed?.[1]?.replace(/&amp;/g, '&') ?? null };
}

describe('the tags of a preview page, as Discord and Slack fetch it', () => {
  for (const [crawler, agent] of Object.entries(CRAWLERS)) {
    it(`${crawler}: a picture names itself, its file and its size`, async () => {
      const up = await upload('sunset.png', 'image/png', png);
      await ctx.background.drain(); // its thumbnail, and with it its size
      const { res, tags, oembed } = await crawl(up.shortCode, agent);
      expect(res.statusCode).toBe(200);
      const raw = `${ctx.config.publicUrl}/${up.shortCode}`;
      expect(res.body).toContain('<meta name="theme-color" content="#0a0a0a">');
      expect(Object.fromEntries(tags)).toMatchObject({
        'og:site_name': 'Upshot',
        'og:title': 'sunset.png',
        'og:url': `${ctx.config.publicUrl}/v/${up.shortCode}`,
        'og:type': 'website',
        'og:image': raw,
        'og:image:type': 'image/png',
        'og:image:width': '300',
        'og:image:height': '200',
        'twitter:card': 'summary_large_image',
        'twitter:image': raw,
        'twitter:title': 'sunset.png',
      });
      expect(tags.get('og:description')).toMatch(/^\d+(\.\d+)? KB · [A-Z][a-z]{2} \d+, \d{4}/);
      expect(oembed).toBe(
        `${ctx.config.publicUrl}/api/oembed?url=${encodeURIComponent(`${ctx.config.publicUrl}/v/${up.shortCode}`)}&format=json`,
      );
    });

    it.skipIf(!withVideo)(
      `${crawler}: a video plays in the embed, with its picture and size`,
      async () => {
        const up = await upload('clip.mp4', 'video/mp4', testVideo());
        await ctx.background.drain();
        const { tags } = await crawl(up.shortCode, agent);
        const raw = `${ctx.config.publicUrl}/${up.shortCode}`;
        expect(Object.fromEntries(tags)).toMatchObject({
          'og:type': 'video.other',
          'og:video': raw,
          'og:video:url': raw,
          'og:video:type': 'video/mp4',
          'og:video:width': '640',
          'og:video:height': '360',
          'twitter:card': 'player',
          'twitter:player': raw,
          'twitter:player:width': '640',
          'twitter:player:height': '360',
          'twitter:player:stream': raw,
          'og:description': expect.stringMatching(/ · /),
        });
        expect(tags.get('og:image')).toBe(`${ctx.config.publicUrl}/thumb/${up.shortCode}`);
        expect(tags.has('og:video:secure_url')).toBe(false); // PUBLIC_URL is http here
      },
    );

    it(`${crawler}: a text file is a summary card with its name and no media`, async () => {
      const up = await upload('notes.txt', 'text/plain', 'some notes');
      const { tags, oembed } = await crawl(up.shortCode, agent);
      expect(tags.get('og:title')).toBe('notes.txt');
      expect(tags.get('twitter:card')).toBe('summary');
      expect(tags.get('og:type')).toBe('website');
      for (const key of ['og:image', 'og:video', 'twitter:player'])
        expect(tags.has(key)).toBe(false);
      expect(oembed).not.toBeNull();
    });

    it(`${crawler}: a password-protected upload shows nothing of itself`, async () => {
      const up = await upload('private-photo.png', 'image/png', png, { password: 'crawl me not' });
      const { res, tags, oembed } = await crawl(up.shortCode, agent);
      expect(res.statusCode).toBe(401);
      expect(tags.size).toBe(0);
      expect(oembed).toBeNull();
      expect(res.body).not.toContain('private-photo');
      expect(res.body).not.toContain(up.shortCode);
    });
  }
});

describe('tags that say nothing of the upload', () => {
  it('a private, expired or used-up upload: no page for a crawler at all', async () => {
    const hidden = await upload('hidden.png', 'image/png', png, { isPublic: 'false' });
    const expiring = await upload('soon.png', 'image/png', png, { expires: '1h' });
    const once = await upload('once.png', 'image/png', png, { maxViews: '1' });
    expect((await visitor(ctx, '198.51.100.1').get(`/${once.shortCode}`)).statusCode).toBe(200);
    ctx.clock.advance(60 * 60 * 1000 + 1);
    for (const [up, status] of [
      [hidden, 404],
      [expiring, 410],
      [once, 410],
    ] as const) {
      const { res, tags } = await crawl(up.shortCode, CRAWLERS.discord);
      expect(res.statusCode).toBe(status);
      expect(tags.size).toBe(0);
      expect(res.body).not.toContain(up.originalFilename);
    }
  });

  it('a private upload opened by its signed link: only the colour, no name in any tag', async () => {
    const up = await upload('signed.png', 'image/png', png, { isPublic: 'false' });
    const access = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${up.id}/access-url`,
      headers: owner,
    });
    const { search } = new URL(access.json<{ url: string }>().url);
    const res = await visitor(ctx).get(`/v/${up.shortCode}${search}`);
    expect(res.statusCode).toBe(200);
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head).toContain('<meta name="theme-color" content="#0a0a0a">');
    expect(head).not.toMatch(/og:|twitter:|oembed/);
  });

  it('a view-limited picture: its name, but no picture (a crawler would spend a view)', async () => {
    const up = await upload('limited.png', 'image/png', png, { maxViews: '5' });
    await ctx.background.drain();
    const { tags } = await crawl(up.shortCode, CRAWLERS.slack);
    expect(tags.get('og:title')).toBe('limited.png');
    expect(tags.get('twitter:card')).toBe('summary');
    expect(tags.has('og:image')).toBe(false);
    const left = await ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${up.id}`,
      headers: owner,
    });
    expect(left.json().viewsLeft).toBe(5);
  });
});

describe("a picture's and a video's size", () => {
  it('is recorded, as shown (turned by its orientation), when the thumbnail is made', async () => {
    const turned = await sharp({
      create: { width: 120, height: 40, channels: 3, background: '#000' },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const up = await upload('turned.jpg', 'image/jpeg', turned);
    await ctx.background.drain();
    const row = await ctx.handle.db
      .selectFrom('uploads')
      .select(['width', 'height'])
      .where('id', '=', up.id)
      .executeTakeFirstOrThrow();
    expect([Number(row.width), Number(row.height)]).toEqual([40, 120]);
  });
});
