/**
 * Link style in Chromium against the real server: Preview page and the embed settings chosen in
 * Settings, then the links the app hands out (the clipboard after an upload, a private card's
 * Copy URL) opened by someone signed out, who lands on the upload's preview page, its tags
 * carrying those settings. Screenshots of Settings with the section at 1280 and 390 px are kept
 * in e2e/screenshots/.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, launchVisitors, screenshot } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { signInThroughForm, watchPageErrors } from '../support/session.ts';
import { expectToast, markToastsSeen, newToast } from '../support/toasts.ts';
import { createUser } from '../support/users.ts';

const OWNER = { email: 'iris@example.com', password: 'e2e-link-style', username: 'iris' };
const POLL = { timeout: 15_000 };

let server: RunningServer;
let owner: Awaited<ReturnType<typeof launchBrowser>>;
let visitors: Awaited<ReturnType<typeof launchVisitors>>;
let page: Page;
let pageErrors: () => string[];

beforeAll(async () => {
  server = await startServer();
  await createUser(server, { ...OWNER, role: 'user' });
  owner = await launchBrowser();
  visitors = await launchVisitors();
  page = owner.page;
  page.setDefaultTimeout(15_000);
  pageErrors = watchPageErrors(page);
  await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: server.url,
  });
  await signInThroughForm(page, server.url, OWNER.email, OWNER.password);
});

// A failed step shows what the server said meanwhile (it logs warnings and errors only).
afterEach((context) => {
  if (context.task.result?.state === 'fail') console.error(server.output().slice(-4000));
});

afterAll(async () => {
  await visitors?.close();
  await owner?.close();
  await server?.stop();
});

const preferences = () => page.getByRole('region', { name: 'Preferences', exact: true });
const linksGroup = () => preferences().getByRole('group', { name: 'Links and embeds' });
const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

async function openSettings() {
  await page.goto(`${server.url}/settings`);
  await linksGroup().getByRole('radiogroup', { name: 'Link style' }).waitFor();
}

/** Opens `url` as someone signed out, in a fresh context: no session, no cookies. */
async function visitSignedOut(url: string) {
  const context = await visitors.newContext();
  const visit = await context.newPage();
  visit.setDefaultTimeout(15_000);
  const response = await visit.goto(url);
  if (!response) throw new Error(`no response for ${url}`);
  return { visit, response };
}

const meta = (visit: Page, selector: string) =>
  visit.locator(`meta[${selector}]`).getAttribute('content');

describe('Settings: links and embeds', () => {
  it('saves Preview page, an embed title, site name and colour', async () => {
    await openSettings();
    const group = linksGroup();
    expect(await group.getByRole('radio', { name: 'File' }).isChecked()).toBe(true);
    await group.getByRole('radio', { name: 'Preview page' }).click();
    const title = group.getByRole('textbox', { name: 'Embed title' });
    await title.fill('{filename} ({size}) by {username}');
    await group
      .getByText(/reads as: holiday\.jpg \(3 MB\) by iris$/)
      .first()
      .waitFor();
    await group.getByRole('textbox', { name: 'Site name' }).fill('Iris shares');
    // The browser's own colour picker, set as a user's choice in it would set it.
    await group.getByLabel('Pick the embed colour').fill('#12ab9f');
    expect(
      await group.getByRole('textbox', { name: 'Embed colour', exact: true }).inputValue(),
    ).toBe('#12ab9f');
    await expectToast(page, 'Preferences updated', () =>
      preferences().getByRole('button', { name: 'Save Preferences' }).click(),
    );

    await openSettings();
    expect(await linksGroup().getByRole('radio', { name: 'Preview page' }).isChecked()).toBe(true);
    expect(await linksGroup().getByRole('textbox', { name: 'Embed title' }).inputValue()).toBe(
      '{filename} ({size}) by {username}',
    );
  });

  it('refuses a colour that is not #rrggbb under its field', async () => {
    const colour = linksGroup().getByRole('textbox', { name: 'Embed colour', exact: true });
    await colour.fill('teal');
    await expectToast(page, 'Failed to update preferences', () =>
      preferences().getByRole('button', { name: 'Save Preferences' }).click(),
    );
    expect(await colour.getAttribute('aria-invalid')).toBe('true');
    await linksGroup().getByText('Must be a colour as #rrggbb').waitFor();
    await colour.fill('#12ab9f');
    expect(await colour.getAttribute('aria-invalid')).toBeNull();
  });

  it('fits a desktop and a phone (screenshots)', async () => {
    await openSettings();
    await expect.poll(() => page.locator('[data-sonner-toast]').count(), POLL).toBe(0);
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth, `${width} px`).toBeLessThanOrEqual(innerWidth);
      await screenshot(page, `settings-links-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

describe('the links handed out', () => {
  it("puts an upload's preview page on the clipboard, which opens signed out", async () => {
    await page.goto(`${server.url}/uploads`);
    await page.getByRole('button', { name: 'Upload Files' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Upload Files' });
    await dialog
      .getByLabel('Choose files to upload')
      .setInputFiles([
        { name: 'field-notes.txt', mimeType: 'text/plain', buffer: Buffer.from('seen at dawn\n') },
      ]);
    await markToastsSeen(page);
    await dialog.getByRole('button', { name: 'Upload 1 file(s)' }).click();
    await newToast(page, '1 file(s) uploaded successfully')
      .getByText('Link copied to clipboard')
      .waitFor();
    await dialog.waitFor({ state: 'detached' });

    const copied = await clipboard();
    expect(copied).toMatch(new RegExp(`^${server.url}/v/[A-Za-z0-9]+$`));
    const { visit, response } = await visitSignedOut(copied);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('text/html; charset=utf-8');
    await visit.getByText('seen at dawn').waitFor();
    // The page carries the embed settings chosen in Settings.
    expect(await meta(visit, 'property="og:title"')).toBe('field-notes.txt (13 Bytes) by iris');
    expect(await meta(visit, 'property="og:site_name"')).toBe('Iris shares');
    expect(await meta(visit, 'name="theme-color"')).toBe('#12ab9f');
    await visit.context().close();
  });

  it("copies a private card's signed preview page, which opens signed out", async () => {
    await page.getByRole('button', { name: 'Upload Files' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Upload Files' });
    await dialog
      .getByLabel('Choose files to upload')
      .setInputFiles([
        { name: 'diary.txt', mimeType: 'text/plain', buffer: Buffer.from('dear diary\n') },
      ]);
    await dialog.getByRole('radio', { name: 'Private' }).click();
    await expectToast(page, '1 file(s) uploaded successfully', () =>
      dialog.getByRole('button', { name: 'Upload 1 file(s)' }).click(),
    );
    await dialog.waitFor({ state: 'detached' });

    await page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
    await expectToast(page, 'URL copied to clipboard', () =>
      page
        .getByRole('article', { name: 'diary.txt' })
        .getByRole('button', { name: 'Copy URL of diary.txt' })
        .click(),
    );
    const copied = new URL(await clipboard());
    expect(copied.pathname).toMatch(/^\/v\/[A-Za-z0-9]+$/);
    expect(copied.search).toMatch(/^\?expires=\d+&signature=[0-9a-f]+$/);
    // Unsigned, the page is no one's; signed, it opens with its text.
    const plain = await visitSignedOut(`${copied.origin}${copied.pathname}`);
    expect(plain.response.status()).toBe(404);
    await plain.visit.context().close();
    const { visit, response } = await visitSignedOut(copied.href);
    expect(response.status()).toBe(200);
    await visit.getByText('dear diary').waitFor();
    await visit.context().close();
    expect(pageErrors()).toEqual([]);
  });
});
