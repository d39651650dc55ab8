import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { openAccountMenu } from '../support/toasts.ts';
import type { Page } from 'playwright-core';

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;

beforeAll(async () => {
  server = await startServer({
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'e2e-admin-password',
    ADMIN_USERNAME: 'ada',
  });
  browser = await launchBrowser();
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('signing in and out', () => {
  it('sends a signed-out visitor from / to the sign-in screen', async () => {
    await page.goto(`${server.url}/`);
    await page.waitForURL(`${server.url}/login`);
    await page.getByText('Welcome back', { exact: true }).waitFor();
    await page.getByText('Sign in to your account').waitFor();
    await page.getByText('Enter your credentials to access your account').waitFor();
    await expect(
      page.getByRole('link', { name: 'Request Access' }).getAttribute('href'),
    ).resolves.toBe('/request-access');
    await screenshot(page, '01-login');
  });

  it('shows the server message when the credentials are wrong', async () => {
    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Under the fields (for a screen reader, tied to them) and in the toast.
    const alert = page.locator('form').getByRole('alert');
    await alert.getByText('Invalid credentials').waitFor();
    await page.locator('[data-sonner-toast]', { hasText: 'Invalid credentials' }).waitFor();
    await expect(page.getByLabel('Password').getAttribute('aria-describedby')).resolves.toBe(
      await alert.getAttribute('id'),
    );
    expect(page.url()).toBe(`${server.url}/login`);
    await screenshot(page, '02-login-error');
  });

  it('signs in through the form and lands on the dashboard with the toast and the navbar', async () => {
    await page.getByLabel('Password').fill('e2e-admin-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await page.getByText('Welcome back!').waitFor();
    const nav = page.getByRole('navigation');
    for (const name of ['Dashboard', 'Uploads', 'Admin']) {
      await nav.getByRole('link', { name, exact: true }).waitFor();
    }
    await expect(page.getByRole('button', { name: 'Account menu' }).innerText()).resolves.toBe(
      'AD',
    );
    await screenshot(page, '03-dashboard');
  });

  it('stays signed in after a reload', async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    expect(page.url()).toBe(`${server.url}/dashboard`);
  });

  it('sends the user to sign in when the session is revoked elsewhere, and back to the page after', async () => {
    await page.goto(`${server.url}/uploads?type=images`);
    await page.getByRole('button', { name: 'File type: Images' }).waitFor();
    // The session ends behind the app's back (signed out on another device, say).
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    const revoked = await fetch(`${server.url}/api/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBe(204);

    // The next call the app makes answers 401.
    await page.getByRole('button', { name: 'File type: Images' }).click();
    await page.getByRole('menuitemradio', { name: 'Documents' }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.getByText('Your session has expired. Please sign in again.').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();

    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByLabel('Password').fill('e2e-admin-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/uploads?type=documents`);
    await page.getByRole('button', { name: 'File type: Documents' }).waitFor();
  });

  it('opens the avatar menu with the username and email', async () => {
    await openAccountMenu(page);
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await menu.getByText('ada', { exact: true }).waitFor();
    await menu.getByText('admin@example.com').waitFor();
    for (const name of ['Profile', 'Settings', 'Logout']) {
      await menu.getByRole('menuitem', { name }).waitFor();
    }
    await screenshot(page, '04-avatar-menu');
  });

  it('logs out, and /dashboard then redirects to /login', async () => {
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByText('Logged out successfully').waitFor();
    await page.waitForURL(`${server.url}/login`);
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    expect(token).toBeNull();

    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('dismisses a toast swiped 20 px to the right, not one swiped 10 px', async () => {
    // A fresh toast: a failed sign-in. Sonner pauses its timer while the pointer is on it.
    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const toast = page.locator('[data-sonner-toast]', { hasText: 'Invalid credentials' });
    await toast.waitFor();
    // Slow drags (about 0.05 px/ms), so sonner's velocity rule cannot dismiss them.
    const drag = async (px: number) => {
      // Hovering expands the stack and pauses the timers; measure once the toast stops moving.
      await toast.hover();
      let box = (await toast.boundingBox())!;
      for (let i = 0; i < 30; i++) {
        await page.waitForTimeout(100);
        const next = (await toast.boundingBox())!;
        if (next.x === box.x && next.y === box.y) break;
        box = next;
      }
      // From the toast's padding: a drag that starts on its text selects the text, and sonner
      // ignores a swipe while text is selected.
      const [x, y] = [box.x + 6, box.y + box.height / 2];
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let moved = 2; moved <= px; moved += 2) {
        await page.mouse.move(x + moved, y);
        await page.waitForTimeout(40);
      }
      await page.mouse.up();
    };

    await drag(10);
    await page.waitForTimeout(500);
    expect(await toast.isVisible()).toBe(true);

    await drag(22);
    await toast.waitFor({ state: 'detached', timeout: 1500 });
  });

  it('shows a not-found page with a link home for an unknown path', async () => {
    await page.goto(`${server.url}/definitely/not/here`);
    await page.getByText('Page not found').waitFor();
    await screenshot(page, '05-not-found');
  });
});
