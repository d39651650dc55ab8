/**
 * The Dashboard against the real server: a new user's empty one, the same user's after uploads
 * and views, and an admin's with the whole instance. Screenshots at 1280 and 390 px are kept in
 * e2e/screenshots/dashboard-*.png.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { solidPng } from '../support/png.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { apiSignIn, apiUpload, signInThroughForm, watchPageErrors } from '../support/session.ts';
import { createUser } from '../support/users.ts';

const ADMIN = { email: 'boss@example.com', password: 'e2e-dashboard-admin', username: 'boss' };
const USER = { email: 'dana@example.com', password: 'e2e-dashboard-user', username: 'dana' };

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let pageErrors: () => string[];

beforeAll(async () => {
  server = await startServer({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_USERNAME: ADMIN.username,
  });
  await createUser(server, { ...USER, role: 'user' });
  browser = await launchBrowser();
  page = browser.page;
  pageErrors = watchPageErrors(page);
  // A missing element fails with its locator named, well before the test's own timeout.
  page.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A card's number: the definition that follows its label. */
const stat = (label: string) =>
  page
    .locator('dt', { hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');
const region = (name: string) => page.getByRole('region', { name, exact: true });
/** Each body row of a table in `section`, as the texts of its visible cells. */
const rowsOf = (section: string) =>
  region(section)
    .getByRole('row')
    .filter({ has: page.getByRole('cell') })
    .evaluateAll((rows) =>
      rows.map((row) =>
        [...row.querySelectorAll('td')]
          .filter((cell) => cell.offsetParent !== null)
          .map((cell) => cell.innerText.trim()),
      ),
    );

/** Long enough for a toast to time out or a refetch to land on a loaded machine. */
const POLL = { timeout: 10_000 };

async function expectStat(label: string, value: string) {
  await expect.poll(() => stat(label).innerText(), POLL).toBe(value);
}

async function expectNoSidewaysScroll() {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(
    scrollWidth,
    `${scrollWidth}px of content in a ${innerWidth}px window`,
  ).toBeLessThanOrEqual(innerWidth);
}

/** The page as it is now at 1280 px, then at 390 px, and back to 1280 px. */
async function screenshotsAt(name: string, ready: () => Promise<unknown>) {
  // The sign-in toast would cover the navbar: let it time out (4 s) first.
  await expect.poll(() => page.locator('[data-sonner-toast]').count(), POLL).toBe(0);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await ready();
    await expectNoSidewaysScroll();
    await screenshot(page, `dashboard-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The user's statistics over the API, to wait until the server has counted what we did. */
async function statsOf(token: string) {
  const res = await fetch(`${server.url}/api/stats`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { totalUploads: number; totalViews: number };
}

const today = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
}).format(new Date());

describe('the Dashboard', () => {
  let token: string;
  const uploaded: Record<string, { id: string; url: string }> = {};

  it('shows a new user zeros, and neither table', async () => {
    await signInThroughForm(page, server.url, USER.email, USER.password);
    await page.getByText('Welcome back, dana').waitFor();
    await expectStat('Total Uploads', '0');
    await expectStat('Total Views', '0');
    await expectStat('Images', '0');
    await page.getByText('Nothing uploaded yet').waitFor();
    await expect(page.getByText('Most Viewed Uploads').count()).resolves.toBe(0);
    await expect(page.getByText('File Type Breakdown').count()).resolves.toBe(0);
    // A user is not shown the instance.
    await expect(page.getByText('System Uploads').count()).resolves.toBe(0);
    await screenshotsAt('empty', () => stat('Total Uploads').waitFor());
  });

  it("shows the user's uploads, their most viewed and their file types", async () => {
    token = await apiSignIn(server.url, USER.email, USER.password);
    const files = [
      { name: 'red.png', bytes: solidPng(320, 200, [220, 60, 60]), type: 'image/png' },
      { name: 'blue.png', bytes: solidPng(320, 200, [60, 90, 220]), type: 'image/png' },
      { name: 'notes.txt', bytes: Buffer.from('dashboard notes\n'.repeat(40)), type: 'text/plain' },
    ];
    for (const file of files) uploaded[file.name] = await apiUpload(server.url, token, file);

    // A plain GET of a public link is a view: red.png 3, notes.txt 2, blue.png none.
    const view = async (name: string, times: number) => {
      for (let i = 0; i < times; i++) {
        const res = await fetch(uploaded[name]!.url);
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
    };
    await view('red.png', 3);
    await view('notes.txt', 2);
    await expect.poll(async () => (await statsOf(token)).totalViews, POLL).toBe(5);

    // Coming back to the Dashboard fetches the numbers again.
    await page.getByRole('navigation').getByRole('link', { name: 'Uploads', exact: true }).click();
    await page.getByRole('article', { name: 'red.png' }).waitFor();
    await page
      .getByRole('navigation')
      .getByRole('link', { name: 'Dashboard', exact: true })
      .click();
    await expectStat('Total Uploads', '3');
    await expectStat('Total Views', '5');
    await expectStat('Images', '2');
    await expect(page.getByText('Nothing uploaded yet').count()).resolves.toBe(0);

    await expect
      .poll(() => rowsOf('Most Viewed Uploads'), POLL)
      .toEqual([
        ['red.png', '3'],
        ['notes.txt', '2'],
      ]);
    const link = region('Most Viewed Uploads').getByRole('link', { name: 'red.png' });
    await expect(link.getAttribute('href')).resolves.toBe(uploaded['red.png']!.url);
    await expect(link.getAttribute('target')).resolves.toBe('_blank');

    const breakdown = region('File Type Breakdown');
    await expect(breakdown.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Images\s+2\s+67%$/),
      expect.stringMatching(/^Documents\s+1\s+33%$/),
    ]);
    await expect(
      breakdown.getByRole('progressbar', { name: 'Images' }).getAttribute('aria-valuenow'),
    ).resolves.toBe('67');

    // The chart is the user's own: today's bar holds all three uploads.
    const chart = page.getByRole('img', { name: /^Uploads per day/ });
    await expect(chart.getAttribute('aria-label')).resolves.toMatch(
      new RegExp(`: 3 uploads \\(.+\\) in total; busiest day ${today} with 3 uploads\\.$`),
    );
    const titles = await chart.locator('title').allTextContents();
    expect(titles).toHaveLength(30);
    expect(titles.at(-1)).toMatch(new RegExp(`^${today}: 3 uploads, [\\d.]+ KB$`));

    await screenshotsAt('user', () => region('File Type Breakdown').waitFor());
  });

  it('opens a most viewed file in a new tab from its name', async () => {
    const [tab] = await Promise.all([
      browser.context.waitForEvent('page'),
      region('Most Viewed Uploads').getByRole('link', { name: 'notes.txt' }).click(),
    ]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe(uploaded['notes.txt']!.url);
    await expect(tab.locator('body').innerText()).resolves.toContain('dashboard notes');
    await tab.close();
    // That was one more view of notes.txt.
    await expect.poll(async () => (await statsOf(token)).totalViews, POLL).toBe(6);
  });

  it("shows an admin the instance: every user's uploads and views", async () => {
    const adminToken = await apiSignIn(server.url, ADMIN.email, ADMIN.password);
    await apiUpload(server.url, adminToken, {
      name: 'admin-report.txt',
      bytes: Buffer.from('report\n'.repeat(10)),
      type: 'text/plain',
    });

    await page.evaluate(() => localStorage.removeItem('auth_token'));
    await signInThroughForm(page, server.url, ADMIN.email, ADMIN.password);
    await page.getByText('Welcome back, boss').waitFor();

    // The admin's own cards: one upload, no views, no images.
    await expectStat('Total Uploads', '1');
    await expectStat('Total Views', '0');
    await expectStat('Images', '0');
    await expect(page.getByText('Most Viewed Uploads').count()).resolves.toBe(0);

    await expectStat('Total Users', '2');
    await expectStat('System Uploads', '4');
    await expectStat('System Views', '6');
    await expect.poll(() => stat('Storage Used').innerText(), POLL).toMatch(/^[\d.]+ KB$/);

    await expect
      .poll(() => rowsOf('Most Active Users'), POLL)
      .toEqual([
        ['dana', '3'],
        ['boss', '1'],
      ]);

    const recent = await rowsOf('Recent Activity');
    expect(recent).toHaveLength(4);
    expect(recent[0]!.slice(0, 2)).toEqual(['admin-report.txt', 'boss']);
    expect(recent.slice(1).map((row) => row.slice(0, 2))).toEqual(
      expect.arrayContaining([
        ['red.png', 'dana'],
        ['blue.png', 'dana'],
        ['notes.txt', 'dana'],
      ]),
    );
    // en-US, short month, day, year, hour and minute, e.g. "Nov 3, 2025, 2:07 PM".
    for (const row of recent) {
      expect(row[2]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/);
    }

    // One chart, the instance's: four uploads today.
    const charts = page.getByRole('img', { name: /^Uploads per day/ });
    await expect(charts.count()).resolves.toBe(1);
    await expect(charts.getAttribute('aria-label')).resolves.toMatch(
      new RegExp(`: 4 uploads \\(.+\\) in total; busiest day ${today} with 4 uploads\\.$`),
    );

    await screenshotsAt('admin', () => region('Recent Activity').waitFor());

    // On a phone the user and time sit under the file name instead of in columns of their own.
    await page.setViewportSize({ width: 390, height: 844 });
    const phoneRows = await rowsOf('Recent Activity');
    expect(phoneRows[0]![0]).toMatch(/^admin-report\.txt\nboss · [A-Z][a-z]{2} \d/);
    expect(phoneRows[0]).toHaveLength(1);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('ran without a script error or a refused resource', () => {
    expect(pageErrors()).toEqual([]);
  });
});
