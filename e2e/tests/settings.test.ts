/**
 * Settings against the real server: a preference changes what the app does (page size, the
 * privacy of a new upload, the theme), the password changes, the API token is copied and
 * regenerated, the ShareX config downloads with the current token, and a deletion link deletes.
 * Screenshots of Settings and Profile at 1280 and 390 px are kept in e2e/screenshots/.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { apiSignIn, apiUpload, signInThroughForm, watchPageErrors } from '../support/session.ts';
import { expectToast, openAccountMenu } from '../support/toasts.ts';
import { createUser } from '../support/users.ts';

const USER = { email: 'sam@example.com', password: 'e2e-settings-first', username: 'sam' };
const NEW_PASSWORD = 'e2e-settings-second';
const POLL = { timeout: 15_000 };

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let pageErrors: () => string[];
let userId: string;

beforeAll(async () => {
  server = await startServer({
    ADMIN_EMAIL: 'settings-admin@example.com',
    ADMIN_PASSWORD: 'e2e-settings-admin',
    ADMIN_USERNAME: 'settings-admin',
  });
  userId = await createUser(server, { ...USER, role: 'user' });
  browser = await launchBrowser();
  page = browser.page;
  pageErrors = watchPageErrors(page);
  page.setDefaultTimeout(15_000);
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: server.url,
  });
  await signInThroughForm(page, server.url, USER.email, USER.password);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const region = (name: string) => page.getByRole('region', { name, exact: true });

async function openSettings() {
  await openAccountMenu(page);
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await page.waitForURL(`${server.url}/settings`);
  await region('Preferences').getByRole('button', { name: 'Save Preferences' }).waitFor();
}

async function savePreferences() {
  await expectToast(page, 'Preferences updated', () =>
    region('Preferences').getByRole('button', { name: 'Save Preferences' }).click(),
  );
}

/** GET /api/auth/me with a personal API token: its HTTP status. */
async function statusWithApiToken(token: string): Promise<number> {
  const res = await fetch(`${server.url}/api/auth/me`, { headers: { 'X-API-Token': token } });
  await res.arrayBuffer();
  return res.status;
}

/** The user's API token as the server has it now (read with the browser's session). */
async function currentApiToken(): Promise<string> {
  const session = await page.evaluate(() => localStorage.getItem('auth_token'));
  const res = await fetch(`${server.url}/api/users/${userId}`, {
    headers: { authorization: `Bearer ${session}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { apiToken: string }).apiToken;
}

async function copiedToken(): Promise<string> {
  await expectToast(page, 'API token copied to clipboard', () =>
    region('API Token').getByRole('button', { name: 'Copy' }).click(),
  );
  return page.evaluate(() => navigator.clipboard.readText());
}

describe('preferences', () => {
  it('shows 10 cards of 12 uploads once Uploads per page is 10', async () => {
    const token = await apiSignIn(server.url, USER.email, USER.password);
    for (let i = 1; i <= 12; i++) {
      await apiUpload(server.url, token, {
        name: `note-${String(i).padStart(2, '0')}.txt`,
        bytes: Buffer.from(`note ${i}\n`),
        type: 'text/plain',
      });
    }
    await page.getByRole('navigation').getByRole('link', { name: 'Uploads', exact: true }).click();
    await expect.poll(() => page.getByRole('article').count(), POLL).toBe(12);

    await openSettings();
    const perPage = region('Preferences').getByLabel('Uploads per page');
    await expect(perPage.inputValue()).resolves.toBe('20');
    await perPage.fill('10');
    await savePreferences();

    await page.getByRole('navigation').getByRole('link', { name: 'Uploads', exact: true }).click();
    await page.waitForURL(`${server.url}/uploads`);
    await expect.poll(() => page.getByRole('article').count(), POLL).toBe(10);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(`${server.url}/uploads?page=2`);
    await expect.poll(() => page.getByRole('article').count(), POLL).toBe(2);
  });

  it('ignores a page size out of range: it is not saved', async () => {
    await openSettings();
    const perPage = region('Preferences').getByLabel('Uploads per page');
    await perPage.fill('500');
    await expect(
      region('Preferences').getByRole('button', { name: 'Save Preferences' }).isDisabled(),
    ).resolves.toBe(true);
    await page.reload();
    await region('Preferences').getByLabel('Uploads per page').waitFor();
    await expect(perPage.inputValue()).resolves.toBe('10');
  });

  it('makes a file uploaded from the web dialog private once the default is Private', async () => {
    await openSettings();
    await region('Preferences').getByRole('radio', { name: 'Private' }).click();
    await savePreferences();

    await page.getByRole('navigation').getByRole('link', { name: 'Uploads', exact: true }).click();
    await page.getByRole('button', { name: 'Upload Files' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByLabel('Choose files to upload')
      .setInputFiles([
        { name: 'secret-plan.txt', mimeType: 'text/plain', buffer: Buffer.from('private\n') },
      ]);
    await expectToast(page, '1 file(s) uploaded successfully', () =>
      dialog.getByRole('button', { name: 'Upload 1 file(s)' }).click(),
    );
    const card = page.getByRole('article', { name: 'secret-plan.txt' });
    await card.getByText('Private', { exact: true }).waitFor();
    // The server says so too, and its link answers no one but the owner.
    const session = await page.evaluate(() => localStorage.getItem('auth_token'));
    const res = await fetch(`${server.url}/api/uploads?search=secret-plan`, {
      headers: { authorization: `Bearer ${session}` },
    });
    const { uploads } = (await res.json()) as { uploads: { isPublic: boolean; url: string }[] };
    expect(uploads.map((u) => u.isPublic)).toEqual([false]);
    const anonymous = await fetch(uploads[0]!.url);
    await anonymous.arrayBuffer();
    expect(anonymous.status).toBe(404);
  });

  it('turns the app light with Light, and dark again with System', async () => {
    await openSettings();
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await isDark()).toBe(true);
    const dark = await background();

    await region('Preferences').getByRole('radio', { name: 'Light' }).click();
    await savePreferences();
    await expect.poll(isDark, POLL).toBe(false);
    expect(await background()).not.toBe(dark);
    await expect(
      page.evaluate(() => getComputedStyle(document.documentElement).colorScheme),
    ).resolves.toBe('light');
    await screenshot(page, 'settings-light-1280');

    // Kept across a reload: the first paint is dark, the preference follows.
    await page.reload();
    await region('Preferences').getByRole('radio', { name: 'Light' }).waitFor();
    await expect.poll(isDark, POLL).toBe(false);

    await region('Preferences').getByRole('radio', { name: 'System' }).click();
    await savePreferences();
    await expect.poll(isDark, POLL).toBe(true);
    expect(await background()).toBe(dark);
  });
});

describe('the API token', () => {
  let first: string;

  it('copies the token, which authenticates an API call', async () => {
    await openSettings();
    const field = region('API Token').getByLabel('API token', { exact: true });
    await expect(field.inputValue()).resolves.toMatch(/^•{12}.{4}$/);
    first = await copiedToken();
    expect(first).toBe(await currentApiToken());
    expect(await field.inputValue()).toBe(`${'•'.repeat(12)}${first.slice(-4)}`);
    expect(await statusWithApiToken(first)).toBe(200);
  });

  it('regenerates it after confirming: the old token gets 401 at once', async () => {
    await region('API Token').getByRole('button', { name: 'Regenerate' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Regenerate API token?' });
    await dialog.getByText(/current token stops working at once/).waitFor();
    await expectToast(page, 'API token regenerated', () =>
      dialog.getByRole('button', { name: 'Regenerate' }).click(),
    );
    const second = await copiedToken();
    expect(second).not.toBe(first);
    expect(second).toBe(await currentApiToken());
    expect(await statusWithApiToken(first)).toBe(401);
    expect(await statusWithApiToken(second)).toBe(200);
  });

  it('downloads the ShareX config with the current token', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      region('ShareX Configuration')
        .getByRole('button', { name: 'Download ShareX config' })
        .click(),
    ]);
    expect(download.suggestedFilename()).toBe('upshot-sam.sxcu');
    const config = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')) as {
      RequestURL: string;
      Headers: Record<string, string>;
      FileFormName: string;
    };
    expect(config.RequestURL).toBe(`${server.url}/api/upload`);
    expect(config.RequestURL.endsWith('/api/upload')).toBe(true);
    expect(config.Headers['X-API-Token']).toBe(await currentApiToken());
    expect(config.FileFormName).toBe('file');
  });

  it('downloads the bash and PowerShell scripts under their names', async () => {
    for (const [button, name] of [
      ['Download bash script', 'upshot-sam.sh'],
      ['Download PowerShell script', 'upshot-sam.ps1'],
    ] as const) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        region('ShareX Configuration').getByRole('button', { name: button }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(name);
      const text = fs.readFileSync((await download.path())!, 'utf8');
      expect(text).toContain(await currentApiToken());
    }
  });
});

describe('a deletion link', () => {
  it('asks first, then deletes the file, whose link then answers 404', async () => {
    const token = await currentApiToken();
    const form = new FormData();
    // Public, though the default is now private: its link must answer before the deletion.
    form.append('isPublic', 'true');
    form.append('file', new Blob(['delete me\n'], { type: 'text/plain' }), 'doomed.txt');
    const res = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      headers: { 'X-API-Token': token },
      body: form,
    });
    expect(res.status).toBe(201);
    const { url, deletionUrl } = (await res.json()) as { url: string; deletionUrl: string };
    expect(deletionUrl.startsWith(`${server.url}/`)).toBe(true);

    await page.goto(deletionUrl);
    await page.getByRole('heading', { name: 'Delete this file?' }).waitFor();
    await page.getByText('doomed.txt').waitFor();
    // Opening the link deleted nothing.
    const before = await fetch(url);
    await before.arrayBuffer();
    expect(before.status).toBe(200);
    await screenshot(page, 'deletion-link-confirm');

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'File deleted' }).waitFor();
    const after = await fetch(url);
    await after.arrayBuffer();
    expect(after.status).toBe(404);
  });
});

describe('changing the password', () => {
  it('checks the form in the browser before sending', async () => {
    await page.goto(`${server.url}/settings`);
    const card = region('Change Password');
    await card.getByLabel('Current password').fill(USER.password);
    await card.getByLabel('New password', { exact: true }).fill('short');
    await card.getByLabel('Confirm new password').fill('short');
    await card.getByRole('button', { name: 'Change Password' }).click();
    await card.getByText('Password must be at least 8 characters').waitFor();
    await card.getByLabel('Confirm new password').fill('something-else');
    await card.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await card.getByText('New passwords do not match').waitFor();
  });

  it("says the server's reason when the current password is wrong", async () => {
    const card = region('Change Password');
    await card.getByLabel('Current password').fill('not-my-password');
    await card.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await expectToast(page, 'Current password is incorrect', () =>
      card.getByRole('button', { name: 'Change Password' }).click(),
    );
  });

  it('changes it: this session stays, another is signed out, and only the new one signs in', async () => {
    const other = await apiSignIn(server.url, USER.email, USER.password);
    const card = region('Change Password');
    await card.getByLabel('Current password').fill(USER.password);
    await card.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await card.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await expectToast(page, 'Password changed successfully', () =>
      card.getByRole('button', { name: 'Change Password' }).click(),
    );
    await expect(card.getByLabel('Current password').inputValue()).resolves.toBe('');

    const otherSession = await fetch(`${server.url}/api/auth/me`, {
      headers: { authorization: `Bearer ${other}` },
    });
    await otherSession.arrayBuffer();
    expect(otherSession.status).toBe(401);
    await page.reload();
    await region('Change Password').waitFor();
    expect(page.url()).toBe(`${server.url}/settings`);

    await openAccountMenu(page);
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.getByLabel('Email').fill(USER.email);
    await page.getByLabel('Password').fill(USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('form').getByRole('alert').waitFor();
    expect(page.url()).toBe(`${server.url}/login`);

    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/dashboard`);
  });
});

describe('Profile', () => {
  it('shows the account and its totals, and links to Settings', async () => {
    await openAccountMenu(page);
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL(`${server.url}/profile`);
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: 'sam' }).waitFor();
    await main.getByText(USER.email).waitFor();
    const joined = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
    }).format(new Date());
    await main.getByText(`Member since ${joined}`).waitFor();
    const total = (label: string) =>
      region('Your totals')
        .locator('dt', { hasText: new RegExp(`^${label}$`) })
        .locator('xpath=following-sibling::dd[1]');
    // 12 notes and the private plan; the deleted file is gone.
    await expect.poll(() => total('Uploads').innerText(), POLL).toBe('13');

    await main.getByRole('link', { name: /^API Token/ }).click();
    await page.waitForURL(`${server.url}/settings#api-token`);
    await region('API Token').getByLabel('API token', { exact: true }).waitFor();
    expect(pageErrors()).toEqual([]);
  });
});

describe('screenshots', () => {
  it('fit a desktop and a phone without scrolling sideways', async () => {
    await expect.poll(() => page.locator('[data-sonner-toast]').count(), POLL).toBe(0);
    for (const path of ['/settings', '/profile']) {
      for (const [width, height] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.goto(`${server.url}${path}`);
        if (path === '/settings')
          await region('API Token').getByLabel('API token', { exact: true }).waitFor();
        else await page.getByText(/^Member since/).waitFor();
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        expect(scrollWidth, `${path} at ${width} px`).toBeLessThanOrEqual(innerWidth);
        await screenshot(page, `${path.slice(1)}-${width}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageErrors()).toEqual([]);
  });
});
