/**
 * The preview page, /v/{slug}: what it shows for each type, that everything from the upload is
 * escaped, its content security policy, the first 512 KiB of a text and no more, and the raw
 * link's Download (`?download`) and PDF-in-a-frame (`?frame`) answers.
 */
import fs from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { uploadWith, visitor, type Auth } from '../../../test/links.ts';
import { signIn } from '../../../test/users.ts';
import { createWebDist, type WebDist } from '../../../test/web-dist.ts';

let ctx: TestContext;
let owner: Auth;
// A build of its own: the page names its script from the manifest, and the suite may run
// before (or without) the web app's build.
let dist: WebDist;
beforeAll(async () => {
  dist = createWebDist({ preview: true });
  ctx = await createTestContext({}, { webDistDir: dist.dir });
  ({ auth: owner } = await signIn(ctx));
});
afterAll(async () => {
  await ctx.close();
  dist.remove();
});

const upload = (filename: string, contentType: string, data: Buffer | string) =>
  uploadWith(ctx, owner, {}, { filename, contentType, data: Buffer.from(data) });
const page = (slug: string, headers: Record<string, string> = {}) =>
  visitor(ctx, '198.51.100.20').get(`/v/${slug}`, headers);

/** The script and style tags of a page: none inline, none with an event attribute. */
function expectNoInlineScript(html: string) {
  for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) expect(tag).toMatch(/\ssrc="\/assets\//);
  expect(html).not.toMatch(/<script\b[^>]*>[^<]+<\/script>/i);
  // Real tags only: text from the upload is escaped, so `<` never opens one.
  for (const tag of html.match(/<[a-z][^>]*>/gi) ?? []) {
    // Outside its quoted values (escaped: none holds a quote of its own).
    expect(tag.replace(/"[^"]*"/g, '""')).not.toMatch(/\s(on[a-z]+|style)=/i);
  }
}

describe('GET /v/{slug}', () => {
  it('shows each type as it should be shown, with its name, size, date and a Download button', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#345' } })
      .png()
      .toBuffer();
    const cases: [string, string, Buffer | string, RegExp][] = [
      [
        'photo.png',
        'image/png',
        png,
        /<a class="image" href="[^"]+"[^>]*><img src="[^"]+" alt="photo.png">/,
      ],
      ['clip.mp4', 'video/mp4', 'not really a video', /<video class="media" controls[^>]* src="/],
      [
        'song.mp3',
        'audio/mpeg',
        'not really a song',
        /<audio class="media audio" controls[^>]* src="/,
      ],
      [
        'notes.txt',
        'text/plain',
        'one\ntwo\n',
        /<pre class="text" id="text" tabindex="0"><code>one\ntwo\n<\/code>/,
      ],
      [
        'app.py',
        'text/x-python',
        'print(1)\n',
        /<pre [^>]*data-language="python"><code>print\(1\)/,
      ],
      [
        'README.md',
        'text/markdown',
        '# Hi\n',
        /id="rendered" hidden>.*data-language="markdown"><code># Hi/s,
      ],
      [
        'doc.pdf',
        'application/pdf',
        '%PDF-1.4\n',
        /<iframe class="pdf" src="[^"]+" title="doc.pdf"/,
      ],
      ['archive.zip', 'application/zip', 'PK\u0003\u0004', /<div class="other">.*ZIP file/s],
    ];
    for (const [filename, type, data, shows] of cases) {
      const up = await upload(filename, type, data);
      const res = await page(up.shortCode);
      expect(res.statusCode, filename).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body, filename).toMatch(shows);
      expect(res.body).toContain(`<h1 class="name">${filename}</h1>`);
      expect(res.body).toContain(`href="${ctx.config.publicUrl}/${up.shortCode}?download"`);
      expect(res.body).toMatch(/<time datetime="[^"]+">[A-Z][a-z]{2} \d+, \d{4}/);
      expectNoInlineScript(res.body);
      // The PDF is not a sandboxed frame: Chromium's viewer refuses every sandbox (the
      // browser test checks it renders); its own answer is sandboxed instead.
      if (filename === 'doc.pdf') expect(res.body).not.toMatch(/<iframe[^>]*sandbox/);
    }
  });

  it('answers with a strict content security policy, never framed, and HEAD without a body', async () => {
    const up = await upload('a.txt', 'text/plain', 'a');
    const res = await page(up.shortCode);
    const csp = res.headers['content-security-policy'] as string;
    const origin = new URL(ctx.config.publicUrl).origin;
    // Its one script runs by a nonce of this answer's, not by where it comes from: an uploaded
    // .js file is on this origin too, and a <script src> ignores Content-Disposition.
    const nonce = /<script type="module" nonce="([A-Za-z0-9+/]{22}==)" src="\/assets\//.exec(
      res.body,
    )?.[1];
    expect(nonce).toBeDefined();
    expect(res.body).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
    const scripts = csp.split('; ').filter((d) => d.startsWith('script-src'));
    expect(scripts).toEqual([`script-src 'nonce-${nonce}'`]);
    const again = await page(up.shortCode);
    expect(again.headers['content-security-policy']).not.toContain(nonce);
    for (const directive of [
      "default-src 'none'",
      "style-src 'self'",
      `img-src 'self' ${origin}`,
      `media-src 'self' ${origin}`,
      `frame-src 'self' ${origin}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp.split('; ')).toContain(directive);
    }
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    const head = await visitor(ctx).head(`/v/${up.shortCode}`);
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('escapes everything of the upload: its name and its text', async () => {
    const hostile = '<script>window.pwned=1</script><img src=x onerror="pwned=1">"\'&';
    // In an element, quotes need no escaping: only what could open markup does.
    const escaped =
      '&lt;script&gt;window.pwned=1&lt;/script&gt;&lt;img src=x onerror="pwned=1"&gt;"\'&amp;';
    const up = await upload(`x${hostile.replace(/[/\\]/g, '')}.html`, 'text/html', hostile);
    const res = await page(up.shortCode);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<code>${escaped}</code>`);
    expect(res.body).not.toContain('<script>window');
    expect(res.body).not.toContain('<img src=x');
    expect(res.body).toContain('<h1 class="name">x&lt;script&gt;window.pwned=1&lt;script&gt;');
    expectNoInlineScript(res.body);
  });

  it("gives a name like an object's own property no language, and still answers", async () => {
    for (const name of ['a.constructor', 'a.__proto__', 'a.toString', 'a.hasOwnProperty']) {
      const up = await upload(name, 'text/plain', 'just text');
      const res = await page(up.shortCode);
      expect(res.statusCode, name).toBe(200);
      expect(res.body, name).toContain('<code>just text</code>');
      expect(res.body, name).not.toContain('data-language=');
    }
  });

  it('puts the first 512 KiB of a text in the page and no more, offering the rest', async () => {
    const line = 'é'.repeat(99) + '\n'; // 199 bytes: the limit falls inside a character
    const text = line.repeat(Math.ceil((600 * 1024) / Buffer.byteLength(line)));
    const up = await upload('big.log', 'text/plain', text);
    const res = await page(up.shortCode);
    expect(res.statusCode).toBe(200);
    const shown = /<code>([^<]*)<\/code>/.exec(res.body)![1]!;
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(512 * 1024);
    expect(Buffer.byteLength(shown)).toBeGreaterThan(512 * 1024 - 4);
    expect(text.startsWith(shown)).toBe(true); // no half character at the end
    expect(res.body).toMatch(/<a class="tool" id="show-all" href="[^"]+\/[a-z0-9]+">Show all/);
    expect(res.body).toContain('<p class="note" id="truncated-note">Showing the first 512 KB.</p>');
  });

  it("reads the page's text without holding the server up (no synchronous read)", async () => {
    const text = 'a line of the log\n'.repeat(40_000); // 720 KB: the page reads 512 KiB
    const up = await upload('server.log', 'text/plain', text);
    const readSync = vi.spyOn(fs, 'readSync');
    try {
      const res = await page(up.shortCode);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<code>a line of the log\na line');
      expect(readSync).not.toHaveBeenCalled();
    } finally {
      readSync.mockRestore();
    }
  });

  it('shows a text with a NUL in its first bytes as a file it cannot show', async () => {
    const up = await upload('data.txt', 'text/plain', Buffer.from([0x61, 0x00, 0x62]));
    const res = await page(up.shortCode);
    expect(res.body).toContain('<div class="other">');
    expect(res.body).not.toContain('id="text"');
  });

  it('answers 404, as a page, for a link that does not exist', async () => {
    for (const slug of ['nosuch', 'bad%20slug', 'x'.repeat(51)]) {
      const res = await page(slug);
      expect(res.statusCode, slug).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    }
  });
});

describe("the raw link's answers for the page", () => {
  it('?download makes any file an attachment; without it an image stays inline', async () => {
    const up = await upload('a.txt', 'text/plain', 'hello');
    const v = visitor(ctx);
    expect((await v.get(`/${up.shortCode}`)).headers['content-disposition']).toMatch(/^inline/);
    const dl = await v.get(`/${up.shortCode}?download`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toMatch(/^attachment; filename="a.txt"/);
    expect(dl.body).toBe('hello');
  });

  it("serves a PDF inline only at its page's frame URL, into a frame, and never to a shared cache", async () => {
    const up = await upload('doc.pdf', 'application/pdf', '%PDF-1.4\n%%EOF\n');
    const v = visitor(ctx);
    const frameUrl = `${ctx.config.publicUrl}/${up.shortCode}?frame`;
    expect((await page(up.shortCode)).body).toContain(`<iframe class="pdf" src="${frameUrl}"`);
    // The link answers one way, whoever loads it: a cache may keep it, whatever it ignores.
    for (const dest of ['document', 'iframe', 'embed']) {
      const res = await v.get(`/${up.shortCode}`, { 'sec-fetch-dest': dest });
      expect(res.headers['content-disposition'], dest).toMatch(/^attachment/);
      expect(res.headers['cache-control'], dest).toMatch(/^public, max-age=/);
      expect(res.headers.vary, dest).toBeUndefined();
    }
    // Its frame URL: inline into a frame, which only this origin may make; an attachment to a
    // navigation. Two answers at one URL, so no shared cache may keep either.
    const framed = await v.get(`/${up.shortCode}?frame`, { 'sec-fetch-dest': 'iframe' });
    expect(framed.statusCode).toBe(200);
    expect(framed.headers['content-disposition']).toMatch(/^inline/);
    expect(framed.headers['content-security-policy']).toMatch(/^sandbox;.*frame-ancestors 'self'$/);
    expect(framed.headers['cache-control']).toBe('private, no-cache');
    expect(framed.headers.vary).toBe('Sec-Fetch-Dest');
    const top = await v.get(`/${up.shortCode}?frame`, { 'sec-fetch-dest': 'document' });
    expect(top.headers['content-disposition']).toMatch(/^attachment/);
    expect(top.headers['content-security-policy']).not.toContain('frame-ancestors');
    expect(top.headers['cache-control']).toBe('private, no-cache');
    expect(top.headers.vary).toBe('Sec-Fetch-Dest');
    const download = await v.get(`/${up.shortCode}?frame&download`, { 'sec-fetch-dest': 'iframe' });
    expect(download.headers['content-disposition']).toMatch(/^attachment/);
    // Another type at its frame URL, or in a frame, is answered as ever.
    const txt = await upload('t.html', 'text/html', '<b>x</b>');
    const html = await v.get(`/${txt.shortCode}?frame`, { 'sec-fetch-dest': 'iframe' });
    expect(html.headers['content-disposition']).toMatch(/^attachment/);
    expect(html.headers['content-security-policy']).not.toContain('frame-ancestors');
    expect(html.headers['cache-control']).toMatch(/^public, max-age=/);
  });
});
