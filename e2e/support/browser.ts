/** Debian's Chromium driven by playwright-core, one fresh profile per test file. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';
import { repoRoot } from './server.ts';

export const screenshotDir = path.join(repoRoot, 'e2e/screenshots');

const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

export async function launchBrowser(): Promise<{
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...launchOptions,
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A browser for people who are not signed in: each `newContext()` is a fresh one (no cookies,
 * no storage), as a link's recipient opens it. Cheaper than a profile per visitor.
 */
export async function launchVisitors(): Promise<{
  newContext: (options?: BrowserContextOptions) => Promise<BrowserContext>;
  close: () => Promise<void>;
}> {
  const browser: Browser = await chromium.launch(launchOptions);
  return {
    newContext: (options = {}) =>
      browser.newContext({ viewport: { width: 1280, height: 800 }, ...options }),
    close: () => browser.close(),
  };
}

/**
 * The whole page by default; `fullPage: false` for what overlays the window (dialogs, menus).
 * Transitions are finished first, so a control just changed shows its new state.
 */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({
    path: path.join(screenshotDir, `${name}.png`),
    fullPage,
    animations: 'disabled',
  });
}
