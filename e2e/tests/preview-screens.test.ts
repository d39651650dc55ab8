/**
 * The preview page's screens: screenshots at 1280 and 390 px wide (kept in e2e/screenshots/)
 * of an image, a video, code, Markdown and a PDF, none scrolling sideways, and axe-core finding
 * no serious or critical violation on a page of each type.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchVisitors, screenshot } from '../support/browser.ts';
import { CODE, MARKDOWN, pdf, picture, video } from '../support/preview-files.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { apiSignIn, apiUpload } from '../support/session.ts';
import { createUser } from '../support/users.ts';

const OWNER = { email: 'rui@example.com', password: 'e2e-preview-screens', username: 'rui' };
const WIDTHS = [
  [1280, 800],
  [390, 844],
] as const;
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

let server: RunningServer;
let visitors: Awaited<ReturnType<typeof launchVisitors>>;
const links: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer();
  await createUser(server, { ...OWNER, role: 'user' });
  const token = await apiSignIn(server.url, OWNER.email, OWNER.password);
  const files: [string, string, Buffer | string, string][] = [
    ['image', 'test-card.png', picture(), 'image/png'],
    ['video', 'clip.webm', video(), 'video/webm'],
    ['code', 'count_lines.py', CODE, 'text/x-python'],
    ['markdown', 'NOTES.md', MARKDOWN, 'text/markdown'],
    ['pdf', 'report.pdf', pdf('Quarterly report'), 'application/pdf'],
    ['other', 'bundle.zip', 'PK\u0003\u0004', 'application/zip'],
  ];
  for (const [key, name, bytes, type] of files) {
    const up = await apiUpload(server.url, token, { name, bytes: Buffer.from(bytes), type });
    links[key] = up.url.replace(/\/([^/]+)$/, '/v/$1');
  }
  visitors = await launchVisitors();
});

afterAll(async () => {
  await visitors?.close();
  await server?.stop();
});

/** Waits until the page shows what it shows for this type. */
async function settled(page: Page, key: string) {
  if (key === 'image') {
    await expect
      .poll(() => page.locator('.image img').evaluate((i: HTMLImageElement) => i.naturalWidth))
      .toBeGreaterThan(0);
  } else if (key === 'video') {
    await expect
      .poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.readyState))
      .toBeGreaterThanOrEqual(2);
  } else if (key === 'code') {
    await page.locator('#text .hljs-keyword').first().waitFor();
  } else if (key === 'markdown') {
    await page.locator('#rendered h1').waitFor();
  } else if (key === 'pdf') {
    await expect
      .poll(() => page.frames().some((f) => f.url().startsWith('chrome-extension://')))
      .toBe(true);
    // The viewer's toolbar counts the pages once the document is loaded.
    await expect
      .poll(async () => {
        const viewer = page.frames().find((f) => f.url().startsWith('chrome-extension://'));
        return viewer?.evaluate(
          () =>
            document
              .querySelector('pdf-viewer')
              ?.shadowRoot?.querySelector('viewer-toolbar')
              ?.shadowRoot?.querySelector('viewer-page-selector')?.shadowRoot?.textContent ?? '',
        );
      })
      .toMatch(/\/\s*1/);
  }
}

describe('screenshots', () => {
  for (const [width, height] of WIDTHS) {
    it(`the preview of an image, a video, code, Markdown and a PDF at ${width} px`, async () => {
      const context = await visitors.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      for (const key of ['image', 'video', 'code', 'markdown', 'pdf']) {
        await page.goto(links[key]!);
        await settled(page, key);
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        expect(scrollWidth, `${key} at ${width} px`).toBeLessThanOrEqual(innerWidth);
        await screenshot(page, `preview-${key}-${width}`, { fullPage: false });
      }
      await context.close();
    });
  }
});

describe('accessibility', () => {
  it('axe-core finds no serious or critical violation on a preview of each type', async () => {
    const context = await visitors.newContext();
    const page = await context.newPage();
    for (const key of Object.keys(links)) {
      await page.goto(links[key]!);
      await settled(page, key);
      // Evaluated through the debugging protocol, which the page's CSP does not govern.
      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run: (o: object) => Promise<{
                violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
              }>;
            };
          }
        ).axe;
        const result = await axe.run({ exclude: [['iframe.pdf']] });
        return result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      });
      expect(violations, key).toEqual([]);
    }
    await context.close();
  });
});
