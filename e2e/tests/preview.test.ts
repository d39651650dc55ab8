/**
 * The preview page in Chromium, opened by a visitor who is not signed in: each type shown as
 * it should be (the picture and players load, text gets line numbers and colours, Markdown is
 * rendered, the PDF viewer draws from its frame URL and a PDF's own script reaches nothing),
 * the wrap and source toggles and "Show all", a view-limited text fetched by the page, a
 * password form that unlocks the page and its file, and script in a file or its name, or an
 * uploaded script put in the page, that never runs (each attempt would set `window.pwned`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchVisitors } from '../support/browser.ts';
import {
  CODE,
  HOSTILE_HTML,
  HOSTILE_MARKDOWN,
  HOSTILE_NAME,
  MARKDOWN,
  pdf,
  picture,
  sound,
  video,
} from '../support/preview-files.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { apiSignIn, apiUpload, watchPageErrors } from '../support/session.ts';
import { createUser } from '../support/users.ts';

const OWNER = { email: 'pia@example.com', password: 'e2e-preview-pages', username: 'pia' };

let server: RunningServer;
let visitors: Awaited<ReturnType<typeof launchVisitors>>;
let token: string;
const links: Record<string, string> = {};

/** The preview page of an upload's link. */
const previewOf = (url: string) => url.replace(/\/([^/]+)$/, '/v/$1');

async function upload(key: string, name: string, bytes: Buffer | string, type: string, link = {}) {
  const up = await apiUpload(server.url, token, { name, bytes: Buffer.from(bytes), type, link });
  links[key] = previewOf(up.url);
  return up;
}

beforeAll(async () => {
  server = await startServer();
  await createUser(server, { ...OWNER, role: 'user' });
  token = await apiSignIn(server.url, OWNER.email, OWNER.password);
  await upload('image', 'test-card.png', picture(), 'image/png');
  await upload('video', 'clip.webm', video(), 'video/webm');
  await upload('audio', 'tone.ogg', sound(), 'audio/ogg');
  await upload('text', 'server.log', 'started\nlistening on :3000\nstopped\n', 'text/plain');
  await upload('code', 'count_lines.py', CODE, 'text/x-python');
  await upload('markdown', 'NOTES.md', MARKDOWN, 'text/markdown');
  await upload('pdf', 'report.pdf', pdf('Quarterly report'), 'application/pdf');
  await upload('other', 'bundle.zip', 'PK\u0003\u0004 not much of a zip', 'application/zip');
  await upload('hostileMarkdown', 'hostile.md', HOSTILE_MARKDOWN, 'text/markdown');
  await upload('hostileHtml', 'page.html', HOSTILE_HTML, 'text/html');
  await upload('hostileText', 'notes.txt', HOSTILE_HTML, 'text/plain');
  await upload('hostileName', HOSTILE_NAME, 'plain', 'text/plain');
  const long = Array.from({ length: 7000 }, (_, i) => `line ${i + 1} ${'x'.repeat(80)}`).join('\n');
  await upload('long', 'long.log', long, 'text/plain');
  visitors = await launchVisitors();
});

afterEach((context) => {
  if (context.task.result?.state === 'fail') console.error(server.output().slice(-4000));
});

afterAll(async () => {
  await visitors?.close();
  await server?.stop();
});

/** A fresh visitor's page at this preview, watched for script errors and CSP refusals. */
async function open(url: string): Promise<{ page: Page; errors: () => string[] }> {
  const context = await visitors.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors = watchPageErrors(page);
  page.on('dialog', (dialog) => void dialog.dismiss());
  const res = await page.goto(url);
  expect(res?.status()).toBe(200);
  return { page, errors };
}

const pwned = (page: Page) => page.evaluate(() => (window as { pwned?: unknown }).pwned);

describe('each type', () => {
  it('an image, fitted, opening at full size', async () => {
    const { page, errors } = await open(links.image!);
    const img = page.locator('.image img');
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(1200);
    const box = (await img.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(1280);
    expect(await page.locator('a.image').getAttribute('href')).toBe(
      links.image!.replace('/v/', '/'),
    );
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('video and audio in the browser player, which loads them', async () => {
    for (const key of ['video', 'audio']) {
      const { page, errors } = await open(links[key]!);
      const media = page.locator('.media');
      await expect
        .poll(() => media.evaluate((m: HTMLMediaElement) => m.readyState), { timeout: 15_000 })
        .toBeGreaterThanOrEqual(1);
      expect(await media.evaluate((m: HTMLMediaElement) => Math.round(m.duration))).toBe(2);
      expect(errors()).toEqual([]);
      await page.context().close();
    }
  });

  it('text with line numbers, code highlighted, and the wrap toggle', async () => {
    const { page, errors } = await open(links.text!);
    await expect.poll(() => page.locator('#text .line').count()).toBe(3);
    expect(await page.locator('#text .hljs-keyword').count()).toBe(0);

    const code = await open(links.code!);
    await expect
      .poll(() => code.page.locator('#text .line').count())
      .toBe(CODE.split('\n').length - 1);
    expect(await code.page.locator('#text .hljs-keyword').count()).toBeGreaterThan(3);
    // Copying the text leaves the line numbers out.
    expect(await code.page.locator('#text').innerText()).toBe(CODE.replace(/\n$/, ''));
    const wrap = code.page.getByRole('button', { name: 'Wrap lines' });
    await wrap.click();
    expect(await wrap.getAttribute('aria-pressed')).toBe('true');
    expect(await code.page.locator('#text').evaluate((e) => getComputedStyle(e).whiteSpace)).toBe(
      'pre-wrap',
    );
    expect([...errors(), ...code.errors()]).toEqual([]);
    await page.context().close();
    await code.page.context().close();
  });

  it('Markdown rendered, its source one click away', async () => {
    const { page, errors } = await open(links.markdown!);
    await page.locator('#rendered h1', { hasText: 'Release notes' }).waitFor();
    expect(await page.locator('#rendered table td').count()).toBe(4);
    expect(await page.locator('#text').isHidden()).toBe(true);
    // Wrapping is for the source: no button for it while the Markdown is rendered.
    const wrap = page.getByRole('button', { name: 'Wrap lines', includeHidden: true });
    expect(await wrap.isHidden()).toBe(true);
    await page.getByRole('button', { name: 'Source' }).click();
    await page.locator('#text .line').first().waitFor();
    expect(await page.locator('#rendered').isHidden()).toBe(true);
    expect(await wrap.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Source' }).click();
    await page.locator('#rendered h1').waitFor();
    expect(await wrap.isHidden()).toBe(true);
    expect(await page.locator('#text').innerText()).toContain('# Release notes');
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it("a PDF in the browser's own viewer, from its frame URL, which is a download elsewhere", async () => {
    const { page, errors } = await open(links.pdf!);
    // Chromium's viewer is a frame of its own inside the page's frame.
    await expect
      .poll(() => page.frames().some((f) => f.url().startsWith('chrome-extension://')))
      .toBe(true);
    const frameUrl = `${links.pdf!.replace('/v/', '/')}?frame`;
    expect(page.frames().map((f) => f.url())).toContain(frameUrl);
    expect(errors()).toEqual([]);
    const top = await page.context().newPage();
    const [file] = await Promise.all([
      top.waitForEvent('download'),
      top.goto(frameUrl).catch(() => null), // "Download is starting"
    ]);
    expect(file.suggestedFilename()).toBe('report.pdf');
    await page.context().close();
  });

  it("a PDF's own script: dialogs, but no page to reach and nothing sent without a click", async () => {
    const hits: string[] = [];
    const collector = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end();
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const elsewhere = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const script = [
      'app.alert([typeof window, typeof document, typeof fetch].join(" "));',
      `try { this.submitForm({ cURL: "${elsewhere}/form", cSubmitAs: "HTML" }); } catch (e) { app.alert("no form sent"); }`,
      `app.launchURL("${elsewhere}/opened", true);`,
      'app.alert("done");',
    ].join('\n');
    await upload('scripted', 'scripted.pdf', pdf('Scripted', script), 'application/pdf');
    const context = await visitors.newContext();
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      expect((await page.goto(links.scripted!))?.status()).toBe(200);
      await expect.poll(() => dialogs.at(-1), { timeout: 15_000 }).toBe('done');
      expect(dialogs).toEqual(['undefined undefined undefined', 'no form sent', 'done']);
      expect(hits).toEqual([]);
      expect(context.pages()).toHaveLength(1);
      expect(await pwned(page)).toBeUndefined();
    } finally {
      await context.close();
      collector.close();
    }
  });

  it('anything else: its type and the Download button', async () => {
    const { page } = await open(links.other!);
    expect(await page.locator('.other').innerText()).toContain('ZIP file');
    const download = page.getByRole('link', { name: 'Download' });
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe('bundle.zip');
    await page.context().close();
  });

  it('"Show all" loads the rest of a long text in the browser', async () => {
    const { page } = await open(links.long!);
    await expect.poll(() => page.locator('#text .line').count()).toBeLessThan(7000);
    await page.getByRole('link', { name: /^Show all/ }).click();
    await expect.poll(() => page.locator('#text .line').count()).toBe(7000);
    await page.context().close();
  });
});

describe('script in a file or its name never runs', () => {
  it('in Markdown, an HTML source file, a text file, or a file name', async () => {
    for (const key of ['hostileMarkdown', 'hostileHtml', 'hostileText', 'hostileName']) {
      const { page } = await open(links[key]!);
      if (key === 'hostileMarkdown') {
        await page.locator('#rendered h1').waitFor();
        const rendered = page.locator('#rendered');
        expect(
          await rendered.locator('script, svg, iframe, form, [onerror], [onload]').count(),
        ).toBe(0);
        expect(await rendered.locator('a[href^="javascript" i]').count()).toBe(0);
        for (const name of ['click me', 'anchor']) await rendered.getByText(name).click();
        await rendered.locator('summary').click();
      } else {
        await page.locator('#text .line').first().waitFor();
      }
      expect(await pwned(page), key).toBeUndefined();
      await page.context().close();
    }
  });
});

describe("the page's script policy", () => {
  it('runs no uploaded script put in the page, whether as markup or as an element', async () => {
    // An upload served from this origin: `<script src>` ignores its Content-Disposition.
    const js = await upload(
      'script',
      'evil.js',
      "window.top.pwned = 'uploaded script';",
      'text/javascript',
    );
    const src = new URL(js.url).pathname;
    const { page } = await open(links.markdown!);
    await page.locator('#rendered h1').waitFor();
    // What a sanitizer's or highlighter's bug would let in: markup, parsed where script runs...
    await page.evaluate(
      (src) =>
        new Promise<void>((resolve) => {
          const frame = document.createElement('iframe');
          frame.srcdoc = `<script src="${src}"></script>`;
          frame.addEventListener('load', () => resolve());
          document.querySelector('#rendered')!.append(frame);
        }),
      src,
    );
    expect(await pwned(page)).toBeUndefined();
    // ...or a script element made by script.
    const outcome = await page.evaluate(
      (src) =>
        new Promise<string>((resolve) => {
          const script = document.createElement('script');
          script.src = src;
          script.addEventListener('load', () => resolve('ran'));
          script.addEventListener('error', () => resolve('refused'));
          document.head.append(script);
        }),
      src,
    );
    expect(outcome).toBe('refused');
    expect(await pwned(page)).toBeUndefined();
    await page.context().close();
  });
});

describe('behind the gate', () => {
  it('a view-limited text is fetched by the page, spending one view; opening it spends none', async () => {
    const up = await upload('limited', 'limited.txt', 'counted once\n', 'text/plain', {
      maxViews: 2,
    });
    const views = async () => {
      const res = await fetch(`${server.url}/api/uploads/${up.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await res.json()) as { viewsLeft: number }).viewsLeft;
    };
    const first = await open(links.limited!);
    await first.page.locator('#text .line', { hasText: 'counted once' }).waitFor();
    expect(await views()).toBe(1);
    await first.page.reload();
    await first.page.locator('#text .line', { hasText: 'counted once' }).waitFor();
    expect(await views()).toBe(1); // the same browser: its grant
    await first.page.context().close();
  });

  it('a password form on the page unlocks the page and the file it shows', async () => {
    await upload('locked', 'locked.png', picture(), 'image/png', { password: 'let me see' });
    const context = await visitors.newContext();
    const page = await context.newPage();
    expect((await page.goto(links.locked!))?.status()).toBe(401);
    await page.getByLabel('Password').fill('let me see');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.waitForURL(links.locked!);
    const img = page.locator('.image img');
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(1200);
    await context.close();
  });
});
