/**
 * Every screen on a phone (390 x 844) and a desktop (1280 x 800): nothing scrolls sideways, the
 * built app runs under the server's Content-Security-Policy, and a screenshot of each is kept in
 * e2e/screenshots/ (phone-*.png, desktop-*.png) to look at. The Admin screen's tabs and dialogs
 * and the registration screen are shot with something in them: a pending access request, the
 * audit log of a user made over the admin API, and that user's invitation.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { solidPng } from '../support/png.ts';
import { apiSignIn, apiUpload, watchPageErrors } from '../support/session.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const ADMIN = { email: 'screens@example.com', password: 'e2e-screens-password' };
const LONG_NAME = 'quarterly-report-for-the-board-with-a-rather-long-file-name-2025-final-v3.pdf';

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let token: string;
let pageErrors: () => string[];
let inviteCode: string;

beforeAll(async () => {
  server = await startServer({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // A long name: the navbar and the avatar menu must still fit a phone.
    ADMIN_USERNAME: 'screens-administrator',
  });
  token = await apiSignIn(server.url, ADMIN.email, ADMIN.password);
  await apiUpload(server.url, token, {
    name: 'sunset.png',
    bytes: solidPng(800, 450, [230, 120, 60]),
    type: 'image/png',
  });
  await apiUpload(server.url, token, {
    name: LONG_NAME,
    bytes: Buffer.from('%PDF-1.4\n% not really a pdf\n'),
    type: 'application/pdf',
    isPublic: false,
  });
  await apiUpload(server.url, token, {
    name: 'notes.txt',
    bytes: Buffer.from('notes\n'.repeat(50)),
  });
  // Something for each Admin tab, and an invitation to register with.
  const requested = await fetch(`${server.url}/api/access-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'rita.visitor@example.com',
      name: 'Rita Visitor',
      reason: 'I publish the screenshots of the documentation team, about forty a week.',
    }),
  });
  expect(requested.status).toBe(201);
  const created = await fetch(`${server.url}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      email: 'invited@example.com',
      username: 'invited-user',
      role: 'user',
      sendInvite: true,
    }),
  });
  expect(created.status).toBe(201);
  inviteCode = ((await created.json()) as { inviteCode: string }).inviteCode;
  browser = await launchBrowser();
  page = browser.page;
  pageErrors = watchPageErrors(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function horizontalOverflow(): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
}

async function expectNoSidewaysScroll(screen: string) {
  const { scrollWidth, innerWidth } = await horizontalOverflow();
  expect(
    scrollWidth,
    `${screen} is ${scrollWidth}px wide in a ${innerWidth}px window`,
  ).toBeLessThanOrEqual(innerWidth);
}

/** Waits for the page's animations (a dialog zooming in, another fading out) to end. */
async function animationsDone() {
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished)),
  );
}

async function expectWithinWindow(element: Locator) {
  const box = (await element.boundingBox())!;
  const { width } = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
}

async function signOut() {
  await page.evaluate(() => localStorage.removeItem('auth_token'));
}

async function signIn() {
  await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
}

type Screen = {
  name: string;
  path: string;
  signedIn: boolean;
  /** Waits for the screen's content (not only its frame) to be on screen. */
  ready: () => Promise<unknown>;
};

const heading = (name: string) => () =>
  page.getByRole('heading', { name, exact: true }).first().waitFor();

const SCREENS: Screen[] = [
  { name: 'login', path: '/login', signedIn: false, ready: heading('Welcome back') },
  {
    name: 'request-access',
    path: '/request-access',
    signedIn: false,
    ready: heading('Request Access'),
  },
  { name: 'not-found', path: '/no/such/page', signedIn: false, ready: heading('Page not found') },
  {
    name: 'dashboard',
    path: '/dashboard',
    signedIn: true,
    // The statistics themselves, not only the heading above their loading skeleton.
    ready: () => page.getByRole('region', { name: 'Recent Activity', exact: true }).waitFor(),
  },
  {
    name: 'uploads',
    path: '/uploads',
    signedIn: true,
    ready: async () => {
      await page.getByRole('article', { name: LONG_NAME }).waitFor();
      const thumb = page.getByRole('article', { name: 'sunset.png' }).locator('img');
      await thumb.waitFor();
      await expect
        .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
    },
  },
  {
    name: 'settings',
    path: '/settings',
    signedIn: true,
    // The sections' data, not only the heading above their loading skeletons.
    ready: () => page.getByLabel('API token', { exact: true }).waitFor(),
  },
  {
    name: 'profile',
    path: '/profile',
    signedIn: true,
    ready: () => page.getByText(/^Member since /).waitFor(),
  },
  {
    name: 'admin',
    path: '/admin',
    signedIn: true,
    // The users themselves, not only the heading above the tab's spinner.
    ready: () => page.getByRole('table', { name: 'Users', exact: true }).waitFor(),
  },
  {
    name: 'admin-requests',
    path: '/admin?tab=requests',
    signedIn: true,
    ready: () =>
      page.getByRole('table', { name: 'Access requests' }).getByText('Rita Visitor').waitFor(),
  },
  {
    name: 'admin-audit',
    path: '/admin?tab=audit',
    signedIn: true,
    ready: () => page.getByRole('table', { name: 'Audit log' }).getByText('invited-user').waitFor(),
  },
  {
    name: 'register',
    path: '/register?invite={invite}',
    signedIn: false,
    ready: () => page.getByRole('button', { name: 'Set Password' }).waitFor(),
  },
];

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

describe.each(VIEWPORTS)('every screen at $width px ($name)', (viewport) => {
  beforeAll(async () => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(`${server.url}/login`);
  });

  it.each(SCREENS)('$path does not scroll sideways', async (screen) => {
    if (screen.signedIn) await signIn();
    else await signOut();
    const path = screen.path.replace('{invite}', inviteCode);
    await page.goto(`${server.url}${path}`);
    await screen.ready();
    const url = new URL(page.url());
    expect(`${url.pathname}${url.search}`).toBe(path);
    await expectNoSidewaysScroll(screen.path);
    await screenshot(page, `${viewport.name}-${screen.name}`);
  });

  it('opens Create User and the credentials alert within the window', async () => {
    await signIn();
    await page.goto(`${server.url}/admin`);
    await page.getByRole('table', { name: 'Users', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Create User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create User' });
    await dialog.getByLabel('Email', { exact: true }).fill(`${viewport.name}@example.com`);
    await dialog.getByLabel('Username', { exact: true }).fill(`made-on-a-${viewport.name}`);
    await dialog.getByRole('checkbox', { name: 'Send invite email' }).click();
    await animationsDone();
    await expectWithinWindow(dialog);
    await screenshot(page, `${viewport.name}-create-user`, { fullPage: false });
    await dialog.getByRole('button', { name: 'Create User' }).click();

    const alert = page.getByRole('alertdialog', { name: 'User created' });
    await alert.getByLabel('Temporary password', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await animationsDone();
    await expectWithinWindow(alert);
    await expectNoSidewaysScroll('/admin with the credentials alert');
    await screenshot(page, `${viewport.name}-user-created`, { fullPage: false });
    await alert.getByRole('button', { name: 'Done' }).click();
    await alert.waitFor({ state: 'detached' });
  });

  it('keeps the account menu on screen, and its menu inside the window', async () => {
    await signIn();
    await page.goto(`${server.url}/uploads`);
    const avatar = page.getByRole('button', { name: 'Account menu' });
    await avatar.waitFor();
    const box = (await avatar.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    await avatar.click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Logout' }).waitFor();
    const menuBox = (await menu.boundingBox())!;
    expect(menuBox.x).toBeGreaterThanOrEqual(0);
    expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(viewport.width);
    await screenshot(page, `${viewport.name}-account-menu`, { fullPage: false });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
  });

  it('opens the upload and custom URL dialogs within the window', async () => {
    await page.getByRole('button', { name: 'Upload Files' }).first().click();
    const upload = page.getByRole('dialog', { name: 'Upload Files' });
    await upload.getByText('Drop files here or click to browse').waitFor();
    await upload
      .getByLabel('Choose files to upload')
      .setInputFiles([
        { name: `${LONG_NAME}.copy`, mimeType: 'application/pdf', buffer: Buffer.from('x') },
      ]);
    await upload.getByRole('listitem').first().waitFor();
    const uploadBox = (await upload.boundingBox())!;
    expect(uploadBox.x + uploadBox.width).toBeLessThanOrEqual(viewport.width);
    await screenshot(page, `${viewport.name}-upload-dialog`, { fullPage: false });
    await upload.getByRole('button', { name: 'Cancel' }).click();
    await upload.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: `Set custom URL for ${LONG_NAME}` }).click();
    const vanity = page.getByRole('dialog', { name: 'Custom Short URL' });
    await vanity.getByLabel('Custom URL').fill('board-report');
    await vanity.getByLabel('Preview').getByText(`${server.url}/board-report`).waitFor();
    const vanityBox = (await vanity.boundingBox())!;
    expect(vanityBox.x + vanityBox.width).toBeLessThanOrEqual(viewport.width);
    await screenshot(page, `${viewport.name}-custom-url`, { fullPage: false });
    await vanity.getByRole('button', { name: 'Cancel' }).click();
    await vanity.waitFor({ state: 'detached' });
  });

  it('selects cards with the floating bar inside the window', async () => {
    await page.getByLabel('Select All').click();
    const bar = page.getByRole('region', { name: 'Selected uploads' });
    await bar.getByText('3 selected').waitFor();
    const barBox = (await bar.locator('div').first().boundingBox())!;
    expect(barBox.x).toBeGreaterThanOrEqual(0);
    expect(barBox.x + barBox.width).toBeLessThanOrEqual(viewport.width);
    await expectNoSidewaysScroll('/uploads with a selection');
    await screenshot(page, `${viewport.name}-selection`, { fullPage: false });
    await bar.getByRole('button', { name: 'Clear selection' }).click();
    await bar.waitFor({ state: 'detached' });
  });
});

describe('the navbar on a phone', () => {
  it("folds Dashboard, Uploads and Admin into 'Open menu'", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn();
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // The inline links are hidden on a phone; the menu holds them.
    await expect(page.getByRole('navigation', { name: 'Main' }).isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await expect(menu.getByRole('menuitem').allInnerTexts()).resolves.toEqual([
      'Dashboard',
      'Uploads',
      'Admin',
    ]);
    await screenshot(page, 'phone-nav-menu', { fullPage: false });
    await menu.getByRole('menuitem', { name: 'Uploads' }).click();
    await page.waitForURL(`${server.url}/uploads`);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await expect(page.getByRole('button', { name: 'Open menu' }).isVisible()).resolves.toBe(false);
  });

  it('met no script error and no Content-Security-Policy refusal on any screen', () => {
    expect(pageErrors()).toEqual([]);
  });
});
