/**
 * Link controls' screens: the Link settings dialog used with the keyboard alone, and
 * screenshots at 1280 and 390 px wide (kept in e2e/screenshots/) of the upload dialog with its
 * link options open, Link settings, and the pages a link answers itself: its password form
 * (401) and a used-up link (410). None of them scrolls sideways.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, launchVisitors, screenshot } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { apiSignIn, apiUpload, signInThroughForm, watchPageErrors } from '../support/session.ts';
import { newToast, markToastsSeen, untilToastsGone } from '../support/toasts.ts';
import { createUser } from '../support/users.ts';

const OWNER = { email: 'omar@example.com', password: 'e2e-link-screens', username: 'omar' };
const WIDTHS = [
  [1280, 800],
  [390, 844],
] as const;

let server: RunningServer;
let owner: Awaited<ReturnType<typeof launchBrowser>>;
let visitors: Awaited<ReturnType<typeof launchVisitors>>;
let page: Page;
let pageErrors: () => string[];
let protectedUrl: string;
let usedUpUrl: string;

beforeAll(async () => {
  server = await startServer();
  await createUser(server, { ...OWNER, role: 'user' });
  const token = await apiSignIn(server.url, OWNER.email, OWNER.password);
  await apiUpload(server.url, token, {
    name: 'a-rather-long-file-name-for-the-quarterly-budget-review-2026.txt',
    bytes: Buffer.from('budget\n'),
    type: 'text/plain',
  });
  await apiUpload(server.url, token, {
    name: 'keys.txt',
    bytes: Buffer.from('keys\n'),
    type: 'text/plain',
    link: { password: 'typed-before' },
  });
  protectedUrl = (
    await apiUpload(server.url, token, {
      name: 'guarded.txt',
      bytes: Buffer.from('guarded\n'),
      type: 'text/plain',
      link: { password: 'screens-only' },
    })
  ).url;
  usedUpUrl = (
    await apiUpload(server.url, token, {
      name: 'once.txt',
      bytes: Buffer.from('once\n'),
      type: 'text/plain',
      link: { maxViews: 1 },
    })
  ).url;
  const spent = await fetch(usedUpUrl); // its one view
  expect(spent.status).toBe(200);
  await spent.arrayBuffer();

  owner = await launchBrowser();
  visitors = await launchVisitors();
  page = owner.page;
  page.setDefaultTimeout(15_000);
  pageErrors = watchPageErrors(page);
  await signInThroughForm(page, server.url, OWNER.email, OWNER.password);
  await page.getByRole('navigation').getByRole('link', { name: 'Uploads', exact: true }).click();
  await page.waitForURL(`${server.url}/uploads`);
});

afterEach((context) => {
  if (context.task.result?.state === 'fail') console.error(server.output().slice(-4000));
});

afterAll(async () => {
  await visitors?.close();
  await owner?.close();
  await server?.stop();
});

const card = (name: string) => page.getByRole('article', { name });

/** The aria-label (or else the text) of what has the keyboard's focus. */
const focused = (on: Page = page) =>
  on.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return element?.getAttribute('aria-label') ?? element?.innerText ?? null;
  });

/**
 * Moves a radio group's choice to the next radio, with the arrow held until it is checked, as a
 * person's key press lasts: the group checks a radio focused while an arrow key is down, and
 * it moves the focus a moment after the key goes down.
 */
async function holdArrowUntilChecked(radio: Locator) {
  await page.keyboard.down('ArrowRight');
  try {
    await expect.poll(() => radio.isChecked()).toBe(true);
  } finally {
    await page.keyboard.up('ArrowRight');
  }
}

/** Fails when the page, or the dialog `within`, is wider than the window. */
async function expectNoSidewaysScroll(on: Page, what: string, within?: Locator) {
  const { scrollWidth, innerWidth } = await on.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${what}: the page`).toBeLessThanOrEqual(innerWidth);
  if (within) {
    const box = await within.evaluate((element) => ({
      scrollWidth: element.scrollWidth,
      clientWidth: element.clientWidth,
      right: element.getBoundingClientRect().right,
    }));
    expect(box.scrollWidth, `${what}: inside the dialog`).toBeLessThanOrEqual(box.clientWidth);
    expect(box.right, `${what}: the dialog's edge`).toBeLessThanOrEqual(innerWidth);
  }
}

describe('Link settings with the keyboard alone', () => {
  const name = 'keys.txt';
  const opener = () => card(name).getByRole('button', { name: `Link settings for ${name}` });

  it('opens with Enter, closes with Escape, and gives focus back to its button', async () => {
    await opener().focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Link settings' });
    await dialog.waitFor();
    // Focus starts in the dialog, on the privacy choice.
    await expect.poll(() => focused()).toBe('Public');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focused()).toBe(`Link settings for ${name}`);
  });

  it('fills and saves every field from the keyboard, and focus returns to its button', async () => {
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Link settings' });
    await dialog.waitFor();
    await expect.poll(() => focused()).toBe('Public');
    await holdArrowUntilChecked(dialog.getByRole('radio', { name: 'Private' }));

    await page.keyboard.press('Tab');
    const expires = dialog.getByRole('combobox', { name: 'Expires' });
    await expect.poll(() => expires.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown'); // Never -> In 1 hour
    await page.keyboard.press('ArrowDown'); // -> In 1 day
    await expect
      .poll(() => expires.evaluate((e: HTMLSelectElement) => e.selectedOptions[0]?.text))
      .toBe('In 1 day');

    await page.keyboard.press('Tab');
    await page.keyboard.type('5');
    await expect
      .poll(() => dialog.getByRole('textbox', { name: 'View limit' }).inputValue())
      .toBe('5');

    // The password already set is kept unless changed: Keep, Change, Remove.
    await page.keyboard.press('Tab');
    await expect.poll(() => focused()).toBe('Keep');
    await holdArrowUntilChecked(dialog.getByRole('radio', { name: 'Change' })); // its field appears
    const field = dialog.getByLabel('New password');
    await expect.poll(() => field.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.type('a new secret');

    await markToastsSeen(page);
    await page.keyboard.press('Enter'); // submits the form
    await newToast(page, 'Link settings saved').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focused()).toBe(`Link settings for ${name}`);

    await card(name).getByText('Private', { exact: true }).waitFor();
    await card(name).getByText('Expires in 1 day').waitFor();
    await card(name).getByText('5 of 5 views left').waitFor();
    await card(name).getByText('Password protected').waitFor();
  });
});

describe('screenshots', () => {
  it('of the upload dialog with its link options open', async () => {
    await untilToastsGone(page);
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      await page.getByRole('button', { name: 'Upload Files' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Upload Files' });
      await dialog.getByLabel('Choose files to upload').setInputFiles([
        {
          name: 'holiday-photos-from-the-lake-district-summer-2026.zip',
          mimeType: 'application/zip',
          buffer: Buffer.alloc(2048),
        },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes\n') },
      ]);
      await dialog.getByRole('radio', { name: 'Private' }).click();
      await dialog.getByRole('button', { name: /^Link options/ }).click();
      await dialog.getByRole('combobox', { name: 'Expires' }).selectOption({ label: '7 days' });
      await dialog.getByRole('textbox', { name: 'View limit' }).fill('3');
      await dialog.getByLabel('Password').fill('hunter22');
      await dialog
        .getByRole('button', { name: /^Link options/ })
        .getByText('Expires after 7 days · 3 views · Password')
        .waitFor();
      await expectNoSidewaysScroll(page, `upload dialog at ${width} px`, dialog);
      // The options and the buttons in sight (the dialog scrolls on a small screen).
      await dialog.evaluate((element) => (element.scrollTop = element.scrollHeight));
      await screenshot(page, `link-upload-options-${width}`, { fullPage: false });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
  });

  it('of Link settings', async () => {
    const name = 'a-rather-long-file-name-for-the-quarterly-budget-review-2026.txt';
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      await card(name)
        .getByRole('button', { name: `Link settings for ${name}` })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Link settings' });
      await dialog.getByRole('combobox', { name: 'Expires' }).selectOption({ label: 'In 7 days' });
      await dialog.getByRole('textbox', { name: 'View limit' }).fill('10');
      await dialog.getByRole('radio', { name: 'Set' }).click();
      await dialog.getByLabel('New password').fill('hunter22');
      await expectNoSidewaysScroll(page, `Link settings at ${width} px`, dialog);
      await screenshot(page, `link-settings-${width}`, { fullPage: false });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageErrors()).toEqual([]);
  });

  it('of the cards, each saying what applies to its link', async () => {
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectNoSidewaysScroll(page, `the cards at ${width} px`);
      await screenshot(page, `link-cards-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('of the password page and the used-up page a link answers', async () => {
    for (const [width, height] of WIDTHS) {
      const context = await visitors.newContext({ viewport: { width, height } });
      const visit = await context.newPage();

      const locked = await visit.goto(protectedUrl);
      expect(locked?.status()).toBe(401);
      await visit.getByRole('heading', { name: 'This link is protected' }).waitFor();
      // The field has the focus, ready to type in.
      expect(await visit.getByLabel('Password').evaluate((e) => e === document.activeElement)).toBe(
        true,
      );
      await expectNoSidewaysScroll(visit, `password page at ${width} px`);
      await screenshot(visit, `link-password-page-${width}`);
      await visit.getByLabel('Password').fill('not it');
      await visit.getByRole('button', { name: 'Open' }).click();
      await visit.getByText('Wrong password. Try again.').waitFor();
      await expectNoSidewaysScroll(visit, `wrong password at ${width} px`);
      await screenshot(visit, `link-password-wrong-${width}`);

      const gone = await visit.goto(usedUpUrl);
      expect(gone?.status()).toBe(410);
      await visit.getByRole('heading', { name: 'This link has been used up' }).waitFor();
      await expectNoSidewaysScroll(visit, `used-up page at ${width} px`);
      await screenshot(visit, `link-used-up-${width}`);
      await context.close();
    }
  });
});
