import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { solidPng } from '../support/png.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;

const image = solidPng(640, 320, [40, 120, 220]);
const notes = Buffer.from('Upshot browser test notes\n'.repeat(200));

beforeAll(async () => {
  server = await startServer({
    ADMIN_EMAIL: 'uploader@example.com',
    ADMIN_PASSWORD: 'e2e-upload-password',
    ADMIN_USERNAME: 'uploader',
  });
  browser = await launchBrowser();
  page = browser.page;
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill('uploader@example.com');
  await page.getByLabel('Password').fill('e2e-upload-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${server.url}/dashboard`);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const card = (name: string) => page.getByRole('article', { name });
const fetchBytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

describe('the Uploads screen', () => {
  it('starts empty', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Uploads', exact: true }).click();
    await page.waitForURL(`${server.url}/uploads`);
    // The Dashboard's own "No uploads yet" (Most Active Users) may outlive the URL by a moment.
    await page.getByRole('region', { name: 'Most Active Users' }).waitFor({ state: 'detached' });
    await page.getByText('No uploads yet').waitFor();
    await page.getByText('Upload your first file to get started').waitFor();
    await screenshot(page, '10-uploads-empty');
  });

  it('uploads two files through the dialog', async () => {
    await page.getByRole('button', { name: 'Upload Files' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Drop files here or click to browse').waitFor();
    await dialog.getByLabel('Choose files to upload').setInputFiles([
      { name: 'pixel.png', mimeType: 'image/png', buffer: image },
      { name: 'notes.txt', mimeType: '', buffer: notes },
    ]);
    await dialog.getByRole('button', { name: 'Upload 2 file(s)' }).waitFor();
    await screenshot(page, '11-upload-dialog');
    await dialog.getByRole('button', { name: 'Upload 2 file(s)' }).click();
    await page.getByText('2 file(s) uploaded successfully').waitFor();
    await dialog.waitFor({ state: 'detached' }); // closes by itself after a second
  });

  it('shows both cards, with a thumbnail for the image', async () => {
    await card('pixel.png').waitFor();
    await card('notes.txt').waitFor();
    const thumb = card('pixel.png').locator('img');
    await thumb.waitFor();
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(400);
    await expect(card('notes.txt').getByText('Private').count()).resolves.toBe(0);
    // No thumbnail for text: the card shows an icon, not a broken picture.
    await expect(card('notes.txt').locator('img').count()).resolves.toBe(0);
    await screenshot(page, '12-uploads-grid');
  });

  it('sends a file with a blank type as it is, and the server names its type', async () => {
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    const res = await fetch(`${server.url}/api/uploads?search=notes`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { uploads } = (await res.json()) as { uploads: { mimeType: string }[] };
    expect(uploads.map((u) => u.mimeType)).toEqual(['text/plain']);
  });

  it('gives each card one tab stop per action, each named after the file', async () => {
    const names = await card('pixel.png').evaluate((article) =>
      [...article.querySelectorAll<HTMLElement>('a[href], button, input')]
        .filter((element) => element.tabIndex >= 0)
        .map((element) => element.getAttribute('aria-label')),
    );
    expect(names).toEqual([
      'Select pixel.png',
      'Open pixel.png',
      'Add tag to pixel.png',
      'Copy URL of pixel.png',
      'Make pixel.png private',
      'Link settings for pixel.png',
      'Set custom URL for pixel.png',
      'Delete pixel.png',
    ]);
  });

  it('links to the exact bytes that were uploaded', async () => {
    const href = await card('pixel.png').getByRole('link').first().getAttribute('href');
    expect(href).toMatch(new RegExp(`^${server.url}/[a-z0-9]{6}$`));
    expect((await fetchBytes(href as string)).equals(image)).toBe(true);
  });

  it('sets and clears a custom URL', async () => {
    await card('notes.txt').getByRole('button', { name: 'Set custom URL' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox').fill('team-notes');
    await dialog.getByLabel('Preview').getByText(`${server.url}/team-notes`).waitFor();
    await screenshot(page, '13-custom-url');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Vanity URL set').waitFor();
    await card('notes.txt').getByText('/team-notes').waitFor();
    expect((await fetchBytes(`${server.url}/team-notes`)).equals(notes)).toBe(true);

    await card('notes.txt').getByRole('button', { name: 'Set custom URL' }).click();
    await dialog.getByRole('button', { name: 'Clear custom URL' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Vanity URL removed').waitFor();
    expect((await fetch(`${server.url}/team-notes`)).status).toBe(404);
  });

  it('filters by search and type, and Clear All brings everything back', async () => {
    await page.getByPlaceholder('Search uploads...').fill('notes');
    await expect.poll(() => page.getByRole('article').count()).toBe(1);
    await card('notes.txt').waitFor();

    await page.getByRole('button', { name: 'Clear All' }).click();
    await expect.poll(() => page.getByRole('article').count()).toBe(2);

    await page.getByRole('button', { name: /^File type/ }).click();
    await page.getByRole('menuitemradio', { name: 'Images' }).click();
    await expect.poll(() => page.getByRole('article').count()).toBe(1);
    await card('pixel.png').waitFor();
    await screenshot(page, '14-filtered');
    await page.getByRole('button', { name: 'Clear All' }).click();
    await expect.poll(() => page.getByRole('article').count()).toBe(2);
  });

  it('keeps the filters in the address: a reload, back and a shared link keep them', async () => {
    await page.getByPlaceholder('Search uploads...').fill('pixel');
    await page.waitForURL(`${server.url}/uploads?search=pixel`);
    await page.getByRole('button', { name: /^Sort/ }).click();
    await page.getByRole('menuitemradio', { name: 'Largest' }).click();
    await page.waitForURL(`${server.url}/uploads?search=pixel&sort=largest`);
    await expect.poll(() => page.getByRole('article').count()).toBe(1);

    await page.reload();
    await card('pixel.png').waitFor();
    await expect(page.getByPlaceholder('Search uploads...').inputValue()).resolves.toBe('pixel');
    await page.getByRole('button', { name: 'Sort: Largest', exact: true }).waitFor();
    await expect.poll(() => page.getByRole('article').count()).toBe(1);

    await page.goBack();
    await page.waitForURL(`${server.url}/uploads?search=pixel`);
    await page.getByRole('button', { name: 'Sort: Newest', exact: true }).waitFor();

    await page.goBack();
    await page.waitForURL(`${server.url}/uploads`);
    await expect(page.getByPlaceholder('Search uploads...').inputValue()).resolves.toBe('');
    await expect.poll(() => page.getByRole('article').count()).toBe(2);

    // A link someone shared opens filtered in a tab of its own.
    const shared = await browser.context.newPage();
    await shared.goto(`${server.url}/uploads?type=documents`);
    await shared.getByRole('article', { name: 'notes.txt' }).waitFor();
    await expect.poll(() => shared.getByRole('article').count()).toBe(1);
    await shared.close();
  });

  it("goes chunked above the server's simple-upload limit and completes in the browser", async () => {
    // The server keeps 100 MiB as its limit; this page is told 1 KiB, so a small file takes
    // the chunked path (init, chunk, complete) against the real server.
    await page.route('**/api/config', async (route) => {
      const response = await route.fetch();
      const config = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...config, maxSimpleUploadBytes: 1024 } });
    });
    const calls: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/chunked-upload') || pathname === '/api/upload') {
        calls.push(`${request.method()} ${pathname}`);
      }
    });
    await page.reload();
    await page.getByRole('button', { name: 'Upload Files' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Files over 1 KB are sent in').waitFor();
    const big = Buffer.from('chunked upload line\n'.repeat(500));
    await dialog
      .getByLabel('Choose files to upload')
      .setInputFiles([{ name: 'big.log', mimeType: 'text/plain', buffer: big }]);
    await dialog.getByRole('listitem', { name: 'big.log' }).getByText('Chunked').waitFor();
    await dialog.getByRole('button', { name: 'Upload 1 file(s)' }).click();
    await page.getByText('1 file(s) uploaded successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(calls).toEqual([
      'POST /api/chunked-upload/init',
      'POST /api/chunked-upload/chunk',
      'POST /api/chunked-upload/complete',
    ]);
    const href = await card('big.log')
      .getByRole('link', { name: 'Open big.log' })
      .getAttribute('href');
    expect((await fetchBytes(href as string)).equals(big)).toBe(true);
    await page.unroute('**/api/config');
  });

  it('selects all and deletes them in one batch', async () => {
    await page.getByLabel('Select All').click();
    const bar = page
      .getByRole('region', { name: 'Selected uploads' })
      .or(page.getByLabel('Selected uploads'));
    await bar.getByText('3 selected').waitFor();
    await screenshot(page, '15-selection');
    await bar.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Delete 3 upload(s)? This cannot be undone.').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('3 upload(s) deleted').waitFor();
    await page.getByText('No uploads yet').waitFor();
  });
});
