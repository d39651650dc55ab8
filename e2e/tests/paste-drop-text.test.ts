/**
 * Paste, drop and New text on the Uploads screen in Chromium: a picture pasted on the page and
 * a file dropped on it join the upload dialog's queue; a block of text pasted through the real
 * clipboard opens New text; a text upload made with the keyboard alone gives focus back to its
 * button, its link serves the bytes typed, and its preview page shows them. Screenshots at 1280
 * and 390 px of the drop overlay and of New text, none scrolling sideways.
 *
 * The picture's paste is a paste event holding a DataTransfer with the file, dispatched in the
 * page: headless Chromium's own clipboard does not reliably hand an image to a page in time.
 * The text goes through the real clipboard and Ctrl+V.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { solidPng } from '../support/png.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { apiSignIn, apiUpload, signInThroughForm, watchPageErrors } from '../support/session.ts';
import { expectToast, markToastsSeen, newToast, untilToastsGone } from '../support/toasts.ts';
import { createUser } from '../support/users.ts';

const OWNER = { email: 'noor@example.com', password: 'e2e-paste-and-drop', username: 'noor' };
const WIDTHS = [
  [1280, 800],
  [390, 844],
] as const;

let server: RunningServer;
let owner: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let pageErrors: () => string[];

beforeAll(async () => {
  server = await startServer();
  await createUser(server, { ...OWNER, role: 'user' });
  // A few cards, so the overlay is seen over a screen with something on it.
  const token = await apiSignIn(server.url, OWNER.email, OWNER.password);
  for (const name of ['meeting-notes.txt', 'todo.md']) {
    await apiUpload(server.url, token, {
      name,
      bytes: Buffer.from(`${name}\n`),
      type: 'text/plain',
    });
  }
  owner = await launchBrowser();
  page = owner.page;
  page.setDefaultTimeout(15_000);
  pageErrors = watchPageErrors(page);
  await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: server.url,
  });
  await signInThroughForm(page, server.url, OWNER.email, OWNER.password);
  await page.getByRole('navigation').getByRole('link', { name: 'Uploads', exact: true }).click();
  await page.waitForURL(`${server.url}/uploads`);
  await page.getByRole('article', { name: 'todo.md' }).waitFor();
});

afterEach((context) => {
  if (context.task.result?.state === 'fail') console.error(server.output().slice(-4000));
  expect(pageErrors()).toEqual([]);
});

afterAll(async () => {
  await owner?.close();
  await server?.stop();
});

const uploadDialog = () => page.getByRole('dialog', { name: 'Upload Files' });
const newTextDialog = () => page.getByRole('dialog', { name: 'New text' });
const overlay = () => page.getByText('Drop files to upload');
const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
const fetchBytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

/** What has the keyboard's focus: a control's accessible name where it has one. */
const focused = () =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return null;
    const labelledBy = element.getAttribute('aria-labelledby');
    const label = labelledBy ? document.getElementById(labelledBy)?.textContent : null;
    return `${element.tagName.toLowerCase()}: ${element.getAttribute('aria-label') ?? label ?? element.innerText}`;
  });

/** Fails when the page, or the dialog `within`, is wider than the window. */
async function expectNoSidewaysScroll(what: string, within?: Locator) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
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

/**
 * Dispatches a drag event over the element at the middle of the window, carrying `files`
 * (names and bytes) or, with `text`, a dragged piece of text. Resolves to whether the page
 * took it (called preventDefault).
 */
function drag(
  type: 'dragenter' | 'dragover' | 'dragleave' | 'drop',
  files: { name: string; type: string; bytes: number[] }[],
  text?: string,
) {
  return page.evaluate(
    ({ type, files, text }) => {
      const data = new DataTransfer();
      for (const file of files) {
        data.items.add(new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
      }
      if (text !== undefined) data.setData('text/plain', text);
      const target = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2)!;
      const event = new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true });
      return !target.dispatchEvent(event);
    },
    { type, files, text },
  );
}

/** Uploads the queue in the open dialog and waits until it has closed itself. */
async function sendQueue(count: number) {
  const dialog = uploadDialog();
  await expectToast(page, `${count} file(s) uploaded successfully`, () =>
    dialog.getByRole('button', { name: `Upload ${count} file(s)` }).click(),
  );
  await dialog.waitFor({ state: 'detached' });
}

describe('paste on the Uploads screen', () => {
  const picture = solidPng(320, 200, [200, 80, 40]);

  it('queues a pasted picture in the upload dialog, and its link serves it', async () => {
    await page.getByRole('heading', { name: 'Uploads' }).click(); // focus on the page itself
    const taken = await page.evaluate(
      (bytes) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }));
        const event = new ClipboardEvent('paste', {
          clipboardData: data,
          bubbles: true,
          cancelable: true,
        });
        return !(document.activeElement ?? document.body).dispatchEvent(event);
      },
      [...picture],
    );
    expect(taken).toBe(true);

    // Named by the date and time it was pasted, not the browser's image.png.
    const dialog = uploadDialog();
    const row = dialog.getByRole('listitem', { name: /^paste-\d{4}-\d{2}-\d{2}-\d{6}\.png$/ });
    await row.waitFor();
    const name = (await row.getAttribute('aria-label'))!;
    await sendQueue(1);
    await page.getByRole('article', { name }).waitFor();
    expect((await fetchBytes(await clipboard())).equals(picture)).toBe(true);
  });

  it('offers a block of text pasted from the real clipboard as a new text', async () => {
    const block = 'deploy log\n  step 1: build ok\n  step 2: migrate ok\n\tdone in 42 s\n';
    await page.evaluate((text) => navigator.clipboard.writeText(text), block);
    await page.getByRole('heading', { name: 'Uploads' }).click();
    await page.keyboard.press('Control+V');

    const dialog = newTextDialog();
    const textarea = dialog.getByRole('textbox', { name: 'Text' });
    await textarea.waitFor();
    expect(await textarea.inputValue()).toBe(block);
    expect(await focused()).toBe('textarea: Text');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Pasted into the search box, the same text is the box's.
    const search = page.getByRole('searchbox', { name: 'Search uploads' });
    await page.evaluate(() => navigator.clipboard.writeText('meeting'));
    await search.focus();
    await page.keyboard.press('Control+V');
    await expect.poll(() => search.inputValue()).toBe('meeting');
    expect(await newTextDialog().count()).toBe(0);
    await search.fill('');
  });
});

describe('drop on the Uploads screen', () => {
  const report = { name: 'report.csv', type: 'text/csv', bytes: [...Buffer.from('a,b\n1,2\n')] };

  it('shows nothing for dragged text, and where files go for dragged files', async () => {
    expect(await drag('dragenter', [], 'some words')).toBe(false);
    expect(await overlay().count()).toBe(0);
    await drag('dragleave', [], 'some words');

    await untilToastsGone(page); // the earlier uploads' toasts, which would hide the screen
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      await drag('dragenter', [report]);
      expect(await drag('dragover', [report])).toBe(true);
      await overlay().waitFor();
      await screenshot(page, `paste-drop-overlay-${width}`, { fullPage: false });
      await expectNoSidewaysScroll(`the drop overlay at ${width} px`);
      await drag('dragleave', [report]);
      await overlay().waitFor({ state: 'detached' });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('queues a file dropped anywhere, and its link serves it', async () => {
    await drag('dragenter', [report]);
    await overlay().waitFor();
    expect(await drag('drop', [report])).toBe(true);
    await overlay().waitFor({ state: 'detached' });
    await uploadDialog().getByRole('listitem', { name: 'report.csv' }).waitFor();
    await sendQueue(1);
    expect((await fetchBytes(await clipboard())).equals(Buffer.from(report.bytes))).toBe(true);
  });
});

describe('New text', () => {
  const code = 'def greet(name):\n    return f"Hello, {name}!"\n\nprint(greet("Upshot"))\n';

  it('is drawn whole at 1280 and 390 px', async () => {
    await untilToastsGone(page);
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      await screenshot(page, `paste-drop-uploads-${width}`, { fullPage: false });
      await expectNoSidewaysScroll(`the Uploads screen at ${width} px`);
      await page.getByRole('button', { name: 'New text' }).click();
      const dialog = newTextDialog();
      await dialog.getByRole('textbox', { name: 'Text' }).fill(code);
      await screenshot(page, `paste-drop-new-text-${width}`, { fullPage: false });
      await expectNoSidewaysScroll(`New text at ${width} px`, dialog);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('is made with the keyboard alone: focus goes where it should, and back', async () => {
    const opener = page.getByRole('button', { name: 'New text' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = newTextDialog();
    await dialog.waitFor();
    await expect.poll(focused).toBe('textarea: Text');
    await page.keyboard.type(code);

    // Back to the type, one step: Python is two below Plain text.
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('select: Type');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const name = dialog.getByRole('textbox', { name: 'File name' });
    await expect.poll(() => name.inputValue()).toMatch(/^paste-\d{4}-\d\d-\d\d\.py$/);
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('input: File name');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('greet.py');

    // Forward through the text and the link choices to Save.
    const stops: (string | null)[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      stops.push(await focused());
      if (stops.at(-1) === 'button: Save') break;
    }
    expect(stops).toEqual([
      'select: Type',
      'textarea: Text',
      'button: Public',
      expect.stringMatching(/^button: Link options/),
      'button: Cancel',
      'button: Save',
    ]);
    await markToastsSeen(page);
    await page.keyboard.press('Enter');
    await newToast(page, 'Text uploaded successfully')
      .getByText('Link copied to clipboard')
      .waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('button: New text');

    const link = await clipboard();
    expect((await fetchBytes(link)).equals(Buffer.from(code))).toBe(true);
    await page.getByRole('article', { name: 'greet.py' }).waitFor();
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    const res = await fetch(`${server.url}/api/uploads?search=greet`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { uploads } = (await res.json()) as { uploads: { mimeType: string }[] };
    expect(uploads.map((upload) => upload.mimeType)).toEqual(['text/x-python']);

    // Its preview page shows the text.
    const preview = await owner.context.newPage();
    await preview.goto(link.replace(/\/([^/?]+)$/, '/v/$1'));
    await preview.locator('#text .line').first().waitFor();
    expect(await preview.locator('#text').innerText()).toBe(code.replace(/\n$/, ''));
    await preview.close();
  });
});
