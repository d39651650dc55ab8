/**
 * The Admin screen against the real server: search and filters over real users, deactivating
 * (the user can no longer sign in), resetting a password (copied, and it signs in with the
 * must-change flag), deleting, and the Audit Log tab listing those actions.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { signInRequest, signInThroughForm, watchPageErrors } from '../support/session.ts';
import { expectToast } from '../support/toasts.ts';
import { createUser } from '../support/users.ts';

const ADMIN = { email: 'warden@example.com', password: 'e2e-warden-pw', username: 'warden' };
const USERS = [
  { email: 'bob@example.com', username: 'bob', password: 'bob-password-1', role: 'user' },
  { email: 'carol@example.com', username: 'carol', password: 'carol-password-1', role: 'user' },
  { email: 'dave@example.com', username: 'dave', password: 'dave-password-1', role: 'admin' },
] as const;

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let pageErrors: () => string[];

beforeAll(async () => {
  server = await startServer({
    ADMIN_EMAIL: 'first-admin@example.com',
    ADMIN_PASSWORD: 'e2e-first-admin-pw',
    ADMIN_USERNAME: 'first-admin',
  });
  await createUser(server, { ...ADMIN, role: 'admin' });
  for (const user of USERS) await createUser(server, user);
  browser = await launchBrowser();
  page = browser.page;
  page.setDefaultTimeout(15_000);
  pageErrors = watchPageErrors(page);
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: server.url,
  });
  await signInThroughForm(page, server.url, ADMIN.email, ADMIN.password);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const table = () => page.getByRole('table', { name: 'Users' });
const row = (username: string) => table().getByRole('row', { name: username, exact: true });
const listed = async () => (await table().getByRole('row').all()).length - 1; /* the header row */

async function rowAction(username: string, item: string) {
  await row(username)
    .getByRole('button', { name: `Actions for ${username}` })
    .click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

const signIn = (email: string, password: string) => signInRequest(server.url, email, password);

describe('the Admin screen', () => {
  it('lists every user', async () => {
    await page.goto(`${server.url}/admin`);
    await row('carol').waitFor();
    await expect.poll(listed).toBe(5);
    await row(ADMIN.username).getByText('You').waitFor();
    await row('dave').getByText('Admin', { exact: true }).waitFor();
  });

  it('searches, filters by role and status, and clears the filters', async () => {
    await page.getByRole('searchbox', { name: 'Search users' }).fill('CAR');
    await expect.poll(listed).toBe(1);
    await row('carol').waitFor();
    const filters = page.getByRole('group', { name: 'Active filters' });
    await filters.getByText('Search: CAR').waitFor();

    await filters.getByRole('button', { name: 'Clear All' }).click();
    await expect.poll(listed).toBe(5);

    await page.getByRole('button', { name: 'Role: All Roles' }).click();
    await page.getByRole('menuitemradio', { name: 'Admin' }).click();
    await expect.poll(listed).toBe(3); // the first admin, warden and dave
    await expect(row('bob').count()).resolves.toBe(0);
    await filters.getByText('Role: Admin').waitFor();

    await filters.getByRole('button', { name: 'Clear All' }).click();
    await expect.poll(listed).toBe(5);
  });

  it('deactivates a user, who can no longer sign in', async () => {
    await expectToast(page, 'bob deactivated', () => rowAction('bob', 'Deactivate'));
    await row('bob').getByText('Inactive').waitFor();
    expect((await signIn('bob@example.com', 'bob-password-1')).status).not.toBe(200);

    await page.getByRole('button', { name: 'Status: All Statuses' }).click();
    await page.getByRole('menuitemradio', { name: 'Inactive' }).click();
    await expect.poll(listed).toBe(1);
    await row('bob').waitFor();
    await page
      .getByRole('group', { name: 'Active filters' })
      .getByRole('button', { name: 'Clear All' })
      .click();
    await expect.poll(listed).toBe(5);
  });

  it('resets a password after a confirmation and copies the temporary one', async () => {
    await rowAction('carol', 'Reset password');
    const confirm = page.getByRole('alertdialog', { name: 'Reset password' });
    await confirm.getByText('Reset the password of "carol"?', { exact: false }).waitFor();
    await expectToast(page, 'Password reset and copied to clipboard', () =>
      confirm.getByRole('button', { name: 'Reset Password' }).click(),
    );
    const temporary = await page.evaluate(() => navigator.clipboard.readText());
    expect(temporary.length).toBeGreaterThanOrEqual(8);

    expect((await signIn('carol@example.com', 'carol-password-1')).status).toBe(401);
    const res = await signIn('carol@example.com', temporary);
    expect(res.status).toBe(200);
    const { user } = (await res.json()) as { user: { mustChangePassword: boolean } };
    expect(user.mustChangePassword).toBe(true);
  });

  it('deletes a user after a confirmation', async () => {
    await rowAction('carol', 'Delete');
    const confirm = page.getByRole('alertdialog', { name: 'Delete user' });
    await expectToast(page, 'User deleted successfully', () =>
      confirm.getByRole('button', { name: 'Delete' }).click(),
    );
    await row('carol').waitFor({ state: 'detached' });
    await expect.poll(listed).toBe(4);
    expect((await signIn('carol@example.com', 'carol-password-1')).status).toBe(401);
  });

  it('lists those actions in the Audit Log tab', async () => {
    await page.getByRole('tab', { name: 'Audit Log' }).click();
    const log = page.getByRole('table', { name: 'Audit log' });
    await log.waitFor();
    const rows = async () =>
      (await log.getByRole('row').allInnerTexts()).slice(1).map((text) => text.split('\t'));
    await expect.poll(async () => (await rows()).length).toBe(3);
    const [deleted, reset, changed] = await rows();
    expect(deleted!.slice(1, 4)).toEqual([ADMIN.username, 'Deleted user', 'carol']);
    expect(reset!.slice(1, 4)).toEqual([ADMIN.username, 'Reset password', 'carol']);
    expect(changed!.slice(1, 4)).toEqual([ADMIN.username, 'Changed user', 'bob']);
    expect(changed![4]).toContain('Active: yes \u2192 no');
    expect(pageErrors()).toEqual([]);
  });
});
