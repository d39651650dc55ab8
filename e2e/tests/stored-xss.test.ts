/**
 * Stored XSS: hostile names (filenames, usernames, tag names, an access request's name and
 * reason, audit details; vanity URLs are refused) shown on every screen, dialog, menu and toast
 * of the built app that displays them, in Chromium, plus the server's own deletion page. Each
 * payload would set `window.__xss` if it ran; on every view the test waits for the names to be
 * shown as text, then checks that nothing ran and that no element the payloads describe is in
 * the page (the app's CSP would stop an injected handler, so this checks the rendering itself).
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { solidPng } from '../support/png.ts';
import { apiSignIn, apiUpload, watchPageErrors } from '../support/session.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { markToastsSeen, newToast } from '../support/toasts.ts';
import { createUser } from '../support/users.ts';

/** Hostile names, each within its field's limits; each sets __xss to its number if it runs. */
const X = {
  admin: '<img src=x onerror=__xss=1>',
  user: '"><svg onload=__xss=2>',
  invited: "<img src=x onerror=__xss=3 alt='",
  created: '<details open ontoggle=__xss=4>',
  tag: '<img src=x onerror=__xss=5>',
  tag2: '<svg><script>__xss=6</script>',
  image: '<img src=x onerror=__xss=7>.png',
  text: '"><svg onload=__xss=8>.txt',
  pdf: '<details open ontoggle=__xss=9>.pdf',
  mine: '<img src=x onerror=__xss=10>.txt',
  requester: '<img src=x onerror=__xss=11>',
  reason: '<script>__xss=12</script>\n"><img src=x onerror=__xss=13>',
  search: '<img src=x onerror=__xss=14>',
};

const ADMIN = { email: 'xss-admin@example.com', password: 'e2e-xss-admin-password' };
const MALLORY = { email: 'mallory@example.com', password: 'e2e-mallory-password' };

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let pageErrors: () => string[];
let token: string;
let inviteCode: string;
let deletionUrl: string;
const views: string[] = [];

const api = async (method: string, path: string, body?: unknown, auth = token) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${auth}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as never };
};

beforeAll(async () => {
  server = await startServer({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_USERNAME: X.admin,
  });
  token = await apiSignIn(server.url, ADMIN.email, ADMIN.password);

  // Mallory uploads as herself, then an administrator gives her a hostile name (audited).
  const malloryId = await createUser(server, { ...MALLORY, username: 'mallory', role: 'user' });
  const mallory = await apiSignIn(server.url, MALLORY.email, MALLORY.password);
  await apiUpload(server.url, mallory, { name: X.mine, bytes: Buffer.from('mine\n') });
  expect((await api('PATCH', `/api/users/${malloryId}`, { username: X.user })).status).toBe(200);

  const image = await apiUpload(server.url, token, {
    name: X.image,
    bytes: solidPng(64, 64, [200, 40, 40]),
    type: 'image/png',
  });
  const text = await apiUpload(server.url, token, { name: X.text, bytes: Buffer.from('x\n') });
  // The PDF's deletion link, for the server's own page.
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('%PDF-1.4\n')], { type: 'application/pdf' }), X.pdf);
  const pdf = await fetch(`${server.url}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  deletionUrl = ((await pdf.json()) as { deletionUrl: string }).deletionUrl;
  for (let i = 0; i < 3; i++) await fetch(image.url); // the most viewed

  // A vanity URL cannot carry markup at all; a plain one is shown with the rest.
  const vanity = await api('PATCH', `/api/uploads/${text.id}`, { vanityUrl: X.tag });
  expect(vanity.status).toBe(400);
  expect(
    (await api('PATCH', `/api/uploads/${text.id}`, { vanityUrl: 'plain_vanity' })).status,
  ).toBe(200);

  for (const name of [X.tag, X.tag2]) {
    const tag = await api('POST', '/api/tags', { name });
    expect(tag.status).toBe(201);
    const { id } = (tag.body as { tag: { id: string } }).tag;
    expect((await api('POST', `/api/tags/${id}/uploads/${image.id}`)).status).toBe(200);
  }

  const requested = await fetch(`${server.url}/api/access-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'asker@example.com', name: X.requester, reason: X.reason }),
  });
  expect(requested.status).toBe(201);

  const invited = await api('POST', '/api/users', {
    email: 'invited@example.com',
    username: X.invited,
    role: 'user',
    sendInvite: true,
  });
  expect(invited.status).toBe(201);
  inviteCode = (invited.body as { inviteCode: string }).inviteCode;

  browser = await launchBrowser();
  page = browser.page;
  page.setDefaultTimeout(15_000);
  pageErrors = watchPageErrors(page);
  await page.goto(`${server.url}/login`);
  await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Elements a payload would make if it were parsed as markup. */
const INJECTED = 'img[src="x"], svg[onload], details[ontoggle], [onerror], [onload], [ontoggle]';

/**
 * Waits for each name to be shown (as text, or as a field's value), then checks that no payload
 * ran and none was parsed into the page.
 */
async function expectInert(view: string, shown: (string | { value: string })[]) {
  for (const item of shown) {
    if (typeof item === 'string') {
      await page.getByText(item, { exact: false }).filter({ visible: true }).first().waitFor();
    } else {
      await expect
        .poll(() =>
          page.evaluate(
            (v) => [...document.querySelectorAll('input')].some((i) => i.value === v),
            item.value,
          ),
        )
        .toBe(true);
    }
  }
  const state = await page.evaluate((selector) => {
    const scripts = [...document.querySelectorAll('script')].filter((s) =>
      s.textContent?.includes('__xss'),
    );
    return {
      ran: (window as unknown as { __xss?: unknown }).__xss ?? null,
      injected: [...document.querySelectorAll(selector), ...scripts].map((e) =>
        e.outerHTML.slice(0, 80),
      ),
    };
  }, INJECTED);
  expect(state, view).toEqual({ ran: null, injected: [] });
  views.push(view);
}

const card = (name: string) => page.getByRole('article', { name });
const visit = async (path: string) => {
  await page.goto(`${server.url}${path}`);
};
async function cancel(dialog: Locator) {
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('hostile names on every view that shows them', () => {
  it('the Dashboard: welcome, most viewed, most active users, recent activity', async () => {
    await visit('/dashboard');
    await page.getByRole('region', { name: 'Recent Activity', exact: true }).waitFor();
    await expectInert('Dashboard', [`Welcome back, ${X.admin}`, X.image, X.user, X.mine]);
  });

  it('the account menu', async () => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menu').waitFor();
    await expectInert('Account menu', [X.admin, ADMIN.email]);
    await page.keyboard.press('Escape');
  });

  it('the Uploads grid: filenames, tags on cards, a vanity URL', async () => {
    await visit('/uploads');
    await card(X.image).waitFor();
    await expectInert('Uploads grid', [X.image, X.text, X.pdf, X.tag, X.tag2, '/plain_vanity']);
  });

  it('the tag filter menu, and the list filtered by a hostile tag', async () => {
    await page.getByRole('button', { name: /^Tag: / }).click();
    await page.getByRole('menu').waitFor();
    await expectInert('Tag filter menu', [X.tag, X.tag2]);
    await page.getByRole('menuitemradio', { name: `${X.tag}, 1 upload(s)` }).click();
    await page.getByRole('group', { name: 'Active filters' }).waitFor();
    await expectInert('Uploads filtered by tag (badge)', [`Tag: ${X.tag}`]);
    await page.getByRole('button', { name: 'Clear All' }).click();
  });

  it('a search badge', async () => {
    await page.getByPlaceholder('Search uploads...').fill(X.search);
    await page.getByRole('group', { name: 'Active filters' }).waitFor();
    await expectInert('Uploads search badge', [X.search]);
    await page.getByRole('button', { name: 'Clear All' }).click();
    await card(X.text).waitFor();
  });

  it("a card's tag suggestions", async () => {
    const field = card(X.text).getByRole('combobox', { name: `Add tag to ${X.text}` });
    await field.fill('<');
    await page.getByRole('listbox', { name: 'Tag suggestions' }).waitFor();
    await expectInert('Tag suggestions', [X.tag, X.tag2]);
    await field.fill('');
    await page.keyboard.press('Escape');
  });

  it('the selection bar’s Add Tag menu, and its toast', async () => {
    await page.getByRole('checkbox', { name: `Select ${X.text}` }).click();
    const bar = page.getByRole('region', { name: 'Selected uploads' });
    await bar.getByRole('button', { name: 'Add Tag' }).click();
    await page.getByRole('menu').waitFor();
    await expectInert('Add Tag menu', [X.tag, X.tag2]);
    await markToastsSeen(page);
    await page.getByRole('menu').getByRole('menuitem', { name: X.tag2, exact: true }).click();
    await newToast(page, `Tag "${X.tag2}" added to 1 upload(s)`).waitFor();
    await expectInert('Add Tag toast', [`Tag "${X.tag2}" added to 1 upload(s)`]);
  });

  it('Manage tags, and its delete confirmation', async () => {
    await page.getByRole('button', { name: /^Tag: / }).click();
    await page.getByRole('menuitem', { name: 'Manage tags' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage tags' });
    await dialog.waitFor();
    await expectInert('Manage tags', [X.tag, X.tag2]);
    await dialog.getByRole('button', { name: `Delete tag ${X.tag}` }).click();
    const confirm = page.getByRole('alertdialog');
    await expectInert('Delete tag confirmation', [`Delete tag "${X.tag}"?`]);
    await cancel(confirm);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it("an upload's delete confirmation", async () => {
    await card(X.pdf)
      .getByRole('button', { name: `Delete ${X.pdf}` })
      .click();
    const confirm = page.getByRole('alertdialog');
    await expectInert('Delete upload confirmation', [`Delete "${X.pdf}"? This cannot be undone.`]);
    await cancel(confirm);
  });

  it('the custom URL dialog', async () => {
    await card(X.text)
      .getByRole('button', { name: `Set custom URL for ${X.text}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Custom Short URL' });
    await expectInert('Custom URL dialog', [`Choose a memorable link for ${X.text}.`]);
    await cancel(dialog);
  });

  it('Settings and Profile', async () => {
    await visit('/settings');
    await page.getByLabel('API token', { exact: true }).waitFor();
    await expectInert('Settings', [{ value: X.admin }]);
    await visit('/profile');
    await expectInert('Profile', [X.admin, ADMIN.email]);
  });

  it('the Admin users table, a row’s menu and its confirmations', async () => {
    await visit('/admin');
    const table = page.getByRole('table', { name: 'Users', exact: true });
    await table.waitFor();
    await expectInert('Admin users table', [X.admin, X.user, X.invited]);
    await table.getByRole('button', { name: `Actions for ${X.user}` }).click();
    await expectInert('User row menu', [X.user]);
    await page.getByRole('menuitem', { name: 'Delete', exact: true }).click();
    await expectInert('Delete user confirmation', [`Delete "${X.user}" with all their uploads?`]);
    await cancel(page.getByRole('alertdialog'));
    await table.getByRole('button', { name: `Actions for ${X.user}` }).click();
    await page.getByRole('menuitem', { name: 'Reset password', exact: true }).click();
    await expectInert('Reset password confirmation', [`Reset the password of "${X.user}"?`]);
    await cancel(page.getByRole('alertdialog'));
  });

  it('the credentials of a user created with a hostile name, and the deactivation toast', async () => {
    await page.getByRole('button', { name: 'Create User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create User' });
    await dialog.getByLabel('Email', { exact: true }).fill('created@example.com');
    await dialog.getByLabel('Username', { exact: true }).fill(X.created);
    // No invitation: the alert hands the credentials on, naming the user.
    await dialog.getByRole('checkbox', { name: 'Send invite email' }).click();
    await dialog.getByRole('button', { name: 'Create User' }).click();
    const alert = page.getByRole('alertdialog', { name: 'User created' });
    await alert.waitFor();
    await expectInert('User created alert', [`Hand these credentials to ${X.created}`]);
    await alert.getByRole('button', { name: 'Done' }).click();
    await alert.waitFor({ state: 'detached' });

    const table = page.getByRole('table', { name: 'Users', exact: true });
    await table.getByRole('button', { name: `Actions for ${X.created}` }).click();
    await markToastsSeen(page);
    await page.getByRole('menuitem', { name: 'Deactivate', exact: true }).click();
    await newToast(page, `${X.created} deactivated`).waitFor();
    await expectInert('Deactivation toast', [`${X.created} deactivated`]);
  });

  it('the access requests, and a request’s delete confirmation', async () => {
    await visit('/admin?tab=requests');
    await page.getByRole('table', { name: 'Access requests' }).waitFor();
    await expectInert('Access requests', [X.requester, '<script>__xss=12</script>']);
    await page.getByRole('button', { name: `Delete request from ${X.requester}` }).click();
    await expectInert('Delete request confirmation', [`Delete the request from "${X.requester}"`]);
    await cancel(page.getByRole('alertdialog'));
  });

  it('the audit log', async () => {
    await visit('/admin?tab=audit');
    await page.getByRole('table', { name: 'Audit log' }).waitFor();
    await expectInert('Audit log', [X.admin, X.invited, `mallory \u2192 ${X.user}`]);
  });

  it('the invitation page', async () => {
    await page.evaluate(() => localStorage.removeItem('auth_token'));
    await visit(`/register?invite=${encodeURIComponent(inviteCode)}`);
    await page.getByRole('button', { name: 'Set Password' }).waitFor();
    await expectInert('Invitation page', ['invited@example.com', { value: X.invited }]);
  });

  it("the server's deletion page", async () => {
    await page.goto(deletionUrl);
    await expectInert('Deletion page', [X.pdf]);
  });

  it('covered at least 17 views, with no script error and no CSP refusal', () => {
    expect(views.length, views.join('\n')).toBeGreaterThanOrEqual(17);
    expect(pageErrors()).toEqual([]);
  });
});
