/**
 * Tags on the Uploads screen against the real server: created from a card, used as a filter,
 * put on and taken off a selection in one batch, renamed and deleted from Manage tags.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { solidPng } from '../support/png.ts';
import { apiSignIn, apiUpload, signInThroughForm, watchPageErrors } from '../support/session.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { expectToast, markToastsSeen, newToast } from '../support/toasts.ts';

const USER = { email: 'tagger@example.com', password: 'e2e-tags-password' };
const FILES = ['sunset.png', 'notes.txt', 'todo.txt'];
const LONG_TAG = 'a-rather-long-tag-name-that-should-not-widen-cards'; // 50, the most

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let pageErrors: () => string[];

beforeAll(async () => {
  server = await startServer({
    ADMIN_EMAIL: USER.email,
    ADMIN_PASSWORD: USER.password,
    ADMIN_USERNAME: 'tagger',
  });
  const token = await apiSignIn(server.url, USER.email, USER.password);
  await apiUpload(server.url, token, {
    name: 'sunset.png',
    bytes: solidPng(800, 450, [230, 120, 60]),
    type: 'image/png',
  });
  await apiUpload(server.url, token, { name: 'notes.txt', bytes: Buffer.from('notes\n') });
  await apiUpload(server.url, token, { name: 'todo.txt', bytes: Buffer.from('- tag things\n') });
  browser = await launchBrowser();
  page = browser.page;
  pageErrors = watchPageErrors(page);
  await signInThroughForm(page, server.url, USER.email, USER.password);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const card = (name: string) => page.getByRole('article', { name });
const tagField = (name: string) => card(name).getByRole('combobox', { name: `Add tag to ${name}` });
/** The tags a card shows, in order. */
const cardTags = async (name: string) => {
  const list = card(name).getByRole('list', { name: 'Tags' });
  return (await list.count()) === 0 ? [] : list.getByRole('listitem').allInnerTexts();
};
const articles = () => page.getByRole('article').count();
const selectionBar = () => page.getByRole('region', { name: 'Selected uploads' });
const option = (name: string) =>
  page.getByRole('listbox', { name: 'Tag suggestions' }).getByRole('option', { name, exact: true });

async function openManageTags() {
  await page.getByRole('button', { name: /^Tag: / }).click();
  await page.getByRole('menuitem', { name: 'Manage tags' }).click();
  const dialog = page.getByRole('dialog', { name: 'Manage tags' });
  await dialog.waitFor();
  return dialog;
}

async function closeManageTags() {
  const dialog = page.getByRole('dialog', { name: 'Manage tags' });
  await dialog.waitFor(); // on top: no confirmation over it to take the Escape
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

async function chooseTagFilter(name: string) {
  await page.getByRole('button', { name: /^Tag: / }).click();
  await page.getByRole('menuitemradio', { name: new RegExp(`^${name}, `) }).click();
}

describe('tags on the Uploads screen', () => {
  it('creates a tag from a card, which shows it', async () => {
    await page.goto(`${server.url}/uploads`);
    for (const name of FILES) await card(name).waitFor();

    await tagField('sunset.png').fill('  holiday ');
    await option('Create "holiday"').waitFor();
    await expectToast(page, 'Tag created and added', () => tagField('sunset.png').press('Enter'));

    await expect.poll(() => cardTags('sunset.png')).toEqual(['holiday']);
    await expect(tagField('sunset.png').inputValue()).resolves.toBe('');
    await expect(cardTags('notes.txt')).resolves.toEqual([]);
  });

  it('filters by the tag: only its upload, a badge, and Clear All resets', async () => {
    await chooseTagFilter('holiday');
    await page.waitForURL(/\/uploads\?tag=[\w-]+$/);
    await expect.poll(articles).toBe(1);
    await card('sunset.png').waitFor();
    await page.getByRole('group', { name: 'Active filters' }).getByText('Tag: holiday').waitFor();
    await page.getByRole('button', { name: 'Tag: holiday', exact: true }).waitFor();
    await screenshot(page, '20-tags-filtered');

    await page.getByRole('button', { name: 'Clear All' }).click();
    await page.waitForURL(`${server.url}/uploads`);
    await expect.poll(articles).toBe(3);
    await expect.poll(() => page.getByText('Tag: holiday').count()).toBe(0);
  });

  it('creates another tag by choosing the offer, and adds it elsewhere from the suggestions', async () => {
    await tagField('todo.txt').fill('work');
    await expectToast(page, 'Tag created and added', () => option('Create "work"').click());
    await expect.poll(() => cardTags('todo.txt')).toEqual(['work']);

    // Case does not matter, and the keyboard alone does it.
    await tagField('notes.txt').fill('WO');
    await option('work').waitFor();
    await expect.poll(() => option('holiday').count()).toBe(0);
    await tagField('notes.txt').press('ArrowDown');
    await expectToast(page, 'Tag added', () => tagField('notes.txt').press('Enter'));
    await expect.poll(() => cardTags('notes.txt')).toEqual(['work']);
  });

  it('adds a tag to a whole selection, saying how many had it already', async () => {
    await page.getByLabel('Select All').click();
    await selectionBar().getByText('3 selected').waitFor();
    await screenshot(page, '21-tags-selection', { fullPage: false });

    await selectionBar().getByRole('button', { name: 'Add Tag' }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'work' }).waitFor();
    await markToastsSeen(page);
    await menu.getByRole('menuitem', { name: 'holiday' }).click();

    await newToast(page, 'Tag "holiday" added to 2 upload(s)').waitFor();
    const info = newToast(page, '1 already had this tag');
    await info.waitFor();
    await expect(info.getAttribute('data-type')).resolves.toBe('info');
    await selectionBar().waitFor({ state: 'detached' }); // a batch clears the selection
    for (const name of FILES) await expect.poll(() => cardTags(name)).toContain('holiday');
  });

  it('takes a tag off a whole selection', async () => {
    await page.getByLabel('Select All').click();
    await selectionBar().getByRole('button', { name: 'Remove Tag' }).click();
    await expectToast(page, 'Tag "work" removed from 2 upload(s)', () =>
      page.getByRole('menu').getByRole('menuitem', { name: 'work' }).click(),
    );
    await selectionBar().waitFor({ state: 'detached' });
    for (const name of FILES) await expect.poll(() => cardTags(name)).toEqual(['holiday']);
  });

  it('takes a tag off one card from its badge', async () => {
    await expectToast(page, 'Tag removed', () =>
      card('todo.txt').getByRole('button', { name: 'Remove tag holiday from todo.txt' }).click(),
    );
    await expect.poll(() => cardTags('todo.txt')).toEqual([]);
  });

  it('renames a tag in Manage tags, and the cards follow', async () => {
    const dialog = await openManageTags();
    await dialog.getByText('2 uploads').waitFor();
    await dialog.getByRole('button', { name: 'Rename tag holiday' }).click();
    const field = dialog.getByRole('textbox', { name: 'New name for tag holiday' });
    await field.fill('vacation');
    await screenshot(page, '22-tags-manage', { fullPage: false });
    await expectToast(page, 'Tag renamed', () => field.press('Enter'));
    await dialog.getByText('vacation', { exact: true }).waitFor();
    await closeManageTags();

    await expect.poll(() => cardTags('sunset.png')).toEqual(['vacation']);
    await expect.poll(() => cardTags('notes.txt')).toEqual(['vacation']);
  });

  it('deletes the tag filtering the list, after confirming: the filter and the badges go', async () => {
    await chooseTagFilter('vacation');
    await expect.poll(articles).toBe(2);

    const dialog = await openManageTags();
    await dialog.getByRole('button', { name: 'Delete tag vacation' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm
      .getByText('Delete tag "vacation"? It will be removed from 2 upload(s).', { exact: true })
      .waitFor();
    await expectToast(page, 'Tag deleted', () =>
      confirm.getByRole('button', { name: 'Delete' }).click(),
    );
    // Until the confirmation is gone it hides the dialog beneath from the accessibility tree.
    await confirm.waitFor({ state: 'detached' });
    await dialog.getByText('vacation', { exact: true }).waitFor({ state: 'detached' });
    await dialog.getByText('work', { exact: true }).waitFor();
    await closeManageTags();

    await page.waitForURL(`${server.url}/uploads`);
    await expect.poll(articles).toBe(3);
    for (const name of FILES) await expect.poll(() => cardTags(name)).toEqual([]);
    await expect.poll(() => page.getByText(/^Tag: vacation/).count()).toBe(0);
    // The list filtered by the deleted tag was not reloaded into a 404.
    await expect(page.getByText('Failed to load uploads').count()).resolves.toBe(0);
  });

  it('fits a phone: tags, the tag filter and the selection bar do not scroll sideways', async () => {
    await tagField('sunset.png').fill(LONG_TAG);
    await expectToast(page, 'Tag created and added', () => tagField('sunset.png').press('Enter'));
    await page.setViewportSize({ width: 390, height: 844 });
    await chooseTagFilter(LONG_TAG);
    await expect.poll(articles).toBe(1);
    await page.getByLabel('Select All').click();
    await selectionBar().getByText('1 selected').waitFor();

    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    const bar = (await selectionBar().locator('div').first().boundingBox())!;
    expect(bar.x).toBeGreaterThanOrEqual(0);
    expect(bar.x + bar.width).toBeLessThanOrEqual(390);
    await screenshot(page, '23-tags-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('met no script error and no Content-Security-Policy refusal', () => {
    expect(pageErrors()).toEqual([]);
  });
});
