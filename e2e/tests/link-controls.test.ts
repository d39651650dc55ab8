/**
 * Link controls in Chromium against the real server: a file made private in the upload dialog,
 * a private card's copied link opened by someone signed out, a link given an expiry, a view
 * limit and a password from Link settings and then unlocked and used up by visitors, the links
 * an upload batch leaves on the clipboard, and a video with one view watched by the browser's
 * own player (range requests). Each visitor is a fresh browser context: no session, no cookies.
 */
import type { Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testVideo } from '../../server/test/uploads.ts';
import { launchBrowser, launchVisitors } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { signInThroughForm, watchPageErrors } from '../support/session.ts';
import { expectToast, markToastsSeen, newToast } from '../support/toasts.ts';
import { createUser } from '../support/users.ts';

const OWNER = { email: 'lena@example.com', password: 'e2e-link-controls', username: 'lena' };
/** A link password with a space and a mark, so that every way of writing it in a URL differs. */
const LINK_PASSWORD = 'plum tree 42!';

let server: RunningServer;
let owner: Awaited<ReturnType<typeof launchBrowser>>;
let visitors: Awaited<ReturnType<typeof launchVisitors>>;
let page: Page;
let pageErrors: () => string[];
/** Every URL any browser here asked for, the owner's and the visitors'. */
const visited: string[] = [];

beforeAll(async () => {
  server = await startServer();
  await createUser(server, { ...OWNER, role: 'user' });
  owner = await launchBrowser();
  visitors = await launchVisitors();
  page = owner.page;
  page.setDefaultTimeout(15_000);
  pageErrors = watchPageErrors(page);
  owner.context.on('request', (request) => visited.push(request.url()));
  await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: server.url,
  });
  await signInThroughForm(page, server.url, OWNER.email, OWNER.password);
  await page.getByRole('navigation').getByRole('link', { name: 'Uploads', exact: true }).click();
  await page.waitForURL(`${server.url}/uploads`);
});

// A failed step shows what the server said meanwhile (it logs warnings and errors only).
afterEach((context) => {
  if (context.task.result?.state === 'fail') console.error(server.output().slice(-4000));
});

afterAll(async () => {
  await visitors?.close();
  await owner?.close();
  await server?.stop();
});

const card = (name: string) => page.getByRole('article', { name });

/** A fresh signed-out browser context, its every request recorded. */
async function visitor(): Promise<Page> {
  const context = await visitors.newContext();
  context.on('request', (request) => visited.push(request.url()));
  const visitorPage = await context.newPage();
  visitorPage.setDefaultTimeout(15_000);
  return visitorPage;
}

/** Opens `url` as someone signed out; answers the page and the link's own answer. */
async function visitSignedOut(url: string): Promise<{ visit: Page; response: Response }> {
  const visit = await visitor();
  const response = await visit.goto(url);
  if (!response) throw new Error(`no response for ${url}`);
  return { visit, response };
}

/** What the clipboard of the owner's browser holds. */
const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

/** The owner's uploads as the server has them, for what the screen does not show. */
async function serverUploads(search: string) {
  const session = await page.evaluate(() => localStorage.getItem('auth_token'));
  const res = await fetch(`${server.url}/api/uploads?search=${encodeURIComponent(search)}`, {
    headers: { authorization: `Bearer ${session}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { uploads: { id: string; url: string; isPublic: boolean }[] })
    .uploads;
}

/** Opens the upload dialog and queues `files`; answers the dialog. */
async function queueFiles(files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.getByLabel('Choose files to upload').setInputFiles(files);
  await dialog.getByRole('button', { name: `Upload ${files.length} file(s)` }).waitFor();
  return dialog;
}

describe('privacy', () => {
  const secret = Buffer.from('the private plan\n');

  it('uploads a file as Private from the dialog: the card says so, and its link opens for no one', async () => {
    const dialog = await queueFiles([
      { name: 'private-plan.txt', mimeType: 'text/plain', buffer: secret },
    ]);
    // Public is the default preference; the choice is made here, for this batch.
    await dialog.getByRole('radio', { name: 'Public' }).waitFor();
    expect(await dialog.getByRole('radio', { name: 'Public' }).isChecked()).toBe(true);
    await dialog.getByRole('radio', { name: 'Private' }).click();
    await dialog.getByText('Only you can open it').waitFor();
    await expectToast(page, '1 file(s) uploaded successfully', () =>
      dialog.getByRole('button', { name: 'Upload 1 file(s)' }).click(),
    );
    await newToast(page, '1 file(s) uploaded successfully')
      .getByText('Link copied to clipboard')
      .waitFor();
    await card('private-plan.txt').getByText('Private', { exact: true }).waitFor();

    const [upload] = await serverUploads('private-plan');
    expect(upload?.isPublic).toBe(false);
    const plain = await visitSignedOut(upload!.url);
    expect(plain.response.status()).toBe(404);

    // What went on the clipboard is a link that opens: signed, not the plain one.
    const copied = await clipboard();
    expect(copied).not.toBe(upload!.url);
    expect(copied.startsWith(`${upload!.url}?`)).toBe(true);
    const signed = await visitSignedOut(copied);
    expect(signed.response.status()).toBe(200);
    expect(await signed.response.body()).toEqual(secret);
  });

  it('copies a link from a private card that a signed-out visitor opens, and says until when', async () => {
    await markToastsSeen(page);
    await page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
    await card('private-plan.txt')
      .getByRole('button', { name: 'Copy URL of private-plan.txt' })
      .click();
    const toast = newToast(page, 'URL copied to clipboard');
    const description = await toast.locator('[data-description]').innerText();
    const copied = await clipboard();
    expect(copied).toMatch(/[?&]expires=\d+&signature=/);

    // Signed for 7 days (its end in milliseconds), and the toast gives that moment as the app
    // writes dates.
    const expires = Number(new URL(copied).searchParams.get('expires'));
    expect(Math.abs(expires - (Date.now() + 7 * 86_400_000))).toBeLessThan(120_000);
    const until = await page.evaluate(
      (ms) =>
        new Intl.DateTimeFormat('en-US', {
          month: 'short',
          day: 'numeric',
          year: 'numeric',
          hour: 'numeric',
          minute: '2-digit',
        }).format(new Date(ms)),
      expires,
    );
    expect(description).toBe(`Private link, works until ${until}`);

    const { visit, response } = await visitSignedOut(copied);
    expect(response.status()).toBe(200);
    await visit.getByText('the private plan').waitFor();
    // A signature that is not the server's opens nothing.
    const forged = new URL(copied);
    forged.searchParams.set('signature', '0'.repeat(forged.searchParams.get('signature')!.length));
    const tampered = await visitSignedOut(forged.href);
    expect(tampered.response.status()).toBe(404);
  });
});

describe('Link settings', () => {
  const report = Buffer.from('quarterly report\n');

  it('sets an expiry, a view limit and a password, which the card then shows', async () => {
    const dialog = await queueFiles([
      { name: 'report.txt', mimeType: 'text/plain', buffer: report },
    ]);
    await expectToast(page, '1 file(s) uploaded successfully', () =>
      dialog.getByRole('button', { name: 'Upload 1 file(s)' }).click(),
    );
    await dialog.waitFor({ state: 'detached' });

    await card('report.txt').getByRole('button', { name: 'Link settings for report.txt' }).click();
    const settings = page.getByRole('dialog', { name: 'Link settings' });
    await settings.getByText('Who can open report.txt').waitFor();
    await settings.getByRole('combobox', { name: 'Expires' }).selectOption({ label: 'In 7 days' });
    await settings.getByRole('textbox', { name: 'View limit' }).fill('2');
    await settings.getByRole('radio', { name: 'Set' }).click();
    await settings.getByLabel('New password').fill(LINK_PASSWORD);
    await expectToast(page, 'Link settings saved', () =>
      settings.getByRole('button', { name: 'Save' }).click(),
    );
    await settings.waitFor({ state: 'detached' });

    const limits = card('report.txt');
    await limits.getByText('Password protected').waitFor();
    await limits.getByText('Expires in 7 days').waitFor();
    await limits.getByText('2 of 2 views left').waitFor();
    // Still public: the link itself is what a visitor gets.
    await expect(limits.getByText('Private', { exact: true }).count()).resolves.toBe(0);
  });

  it('asks a visitor for the password (401), opens the file once it is typed, and counts the view', async () => {
    const [upload] = await serverUploads('report');
    const { visit, response } = await visitSignedOut(upload!.url);
    expect(response.status()).toBe(401);
    await visit.getByRole('heading', { name: 'This link is protected' }).waitFor();
    // A wrong one first: the same form again, saying so.
    await visit.getByLabel('Password').fill('not the password');
    await visit.getByRole('button', { name: 'Open' }).click();
    await visit.getByRole('alert').getByText('Wrong password. Try again.').waitFor();

    await visit.getByLabel('Password').fill(LINK_PASSWORD);
    const opened = visit.waitForResponse(
      (r) => r.url() === upload!.url && r.request().method() === 'GET' && r.status() === 200,
    );
    await visit.getByRole('button', { name: 'Open' }).click();
    expect(await (await opened).body()).toEqual(report);
    await visit.getByText('quarterly report').waitFor();
    expect(visit.url()).toBe(upload!.url);
    // The unlock is a cookie the page's scripts cannot read, for this upload only.
    const cookies = await visit.context().cookies();
    const unlock = cookies.find((c) => c.name === `upshot_unlock_${upload!.id}`);
    expect(unlock).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    await page.reload();
    await card('report.txt').getByText('1 of 2 views left').waitFor();
  });

  it('lets a second visitor in, then tells a third the link is used up (410)', async () => {
    const [upload] = await serverUploads('report');
    const second = await visitSignedOut(upload!.url);
    expect(second.response.status()).toBe(401);
    await second.visit.getByLabel('Password').fill(LINK_PASSWORD);
    await second.visit.getByRole('button', { name: 'Open' }).click();
    await second.visit.getByText('quarterly report').waitFor();

    const third = await visitSignedOut(upload!.url);
    expect(third.response.status()).toBe(410);
    await third.visit.getByRole('heading', { name: 'This link has been used up' }).waitFor();
    // The page says nothing of what the link held.
    expect(await third.visit.content()).not.toContain('report.txt');

    await page.reload();
    await card('report.txt').getByText('No views left').waitFor();
  });

  it('never put the password in a URL any browser asked for', () => {
    const forms = [
      LINK_PASSWORD,
      encodeURIComponent(LINK_PASSWORD),
      new URLSearchParams({ p: LINK_PASSWORD }).toString().slice(2),
    ];
    expect(visited.length).toBeGreaterThan(0);
    expect(visited.filter((url) => forms.some((form) => url.includes(form)))).toEqual([]);
    expect(server.output()).not.toContain(LINK_PASSWORD);
  });
});

describe('the links of a batch', () => {
  it('shows a finished row its link while the dialog is open, then copies both links, one a line', async () => {
    // The second file's request waits until the first row has been looked at.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/upload', async (route) => {
      if (route.request().postDataBuffer()?.includes('filename="second.txt"')) await held;
      await route.continue();
    });
    const dialog = await queueFiles([
      { name: 'first.txt', mimeType: 'text/plain', buffer: Buffer.from('first\n') },
      { name: 'second.txt', mimeType: 'text/plain', buffer: Buffer.from('second\n') },
    ]);
    await markToastsSeen(page);
    await dialog.getByRole('button', { name: 'Upload 2 file(s)' }).click();

    const first = dialog.getByRole('listitem', { name: 'first.txt' });
    await first.getByRole('img', { name: 'Uploaded' }).waitFor();
    await first.getByRole('button', { name: 'Copy link of first.txt' }).waitFor();
    const shown = await first.getByText(new RegExp(`^${server.url}/`)).innerText();
    expect(shown).toMatch(new RegExp(`^${server.url}/[a-z0-9]{6}$`));
    // Meanwhile the second is held back: the dialog is open, its batch not done.
    await dialog
      .getByRole('listitem', { name: 'second.txt' })
      .getByRole('img', { name: 'Uploading' })
      .waitFor();
    // Shown as text, not a link: following it would spend a view of a limited link.
    await expect(first.getByRole('link').count()).resolves.toBe(0);
    release();

    const toast = newToast(page, '2 file(s) uploaded successfully');
    await toast.getByText('Links copied to clipboard').waitFor();
    await page.unroute('**/api/upload');
    const lines = (await clipboard()).split('\n');
    const [second] = await serverUploads('second');
    expect(lines).toEqual([shown, second!.url]);
    await dialog.waitFor({ state: 'detached' });
  });
});

describe('a video with one view', () => {
  it("is watched through by its visitor's own player, seeking back and forth; the next gets 410", async () => {
    const video = testVideo({ seconds: 3 });
    const dialog = await queueFiles([{ name: 'clip.mp4', mimeType: 'video/mp4', buffer: video }]);
    await dialog.getByRole('button', { name: /^Link options/ }).click();
    await dialog.getByRole('textbox', { name: 'View limit' }).fill('1');
    await expectToast(page, '1 file(s) uploaded successfully', () =>
      dialog.getByRole('button', { name: 'Upload 1 file(s)' }).click(),
    );
    await card('clip.mp4').getByText('1 of 1 view left').waitFor();
    const [upload] = await serverUploads('clip');

    const { visit, response } = await visitSignedOut(upload!.url);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('video/mp4');
    // Chromium's own player page: it loads the file with the cookie the view set, seeks back
    // and forth (to the start too), and plays. The page runs no script of ours (the sandbox),
    // so its state is read from outside, again and again.
    const player = visit.locator('video');
    await player.waitFor();
    const state = () =>
      player.evaluate((v: HTMLVideoElement) => ({
        ready: v.readyState,
        at: v.currentTime,
        seeking: v.seeking,
        error: v.error?.code ?? null,
        duration: v.duration,
      }));
    await vi.waitFor(async () => expect((await state()).ready).toBeGreaterThanOrEqual(2), {
      timeout: 10_000,
    });
    for (const to of [2.5, 0.2, 1.5, 0]) {
      await player.evaluate((v: HTMLVideoElement, t: number) => {
        v.currentTime = t;
      }, to);
      await vi.waitFor(
        async () => {
          const now = await state();
          expect(now.seeking).toBe(false);
          expect(now.at).toBeCloseTo(to, 1);
        },
        { timeout: 10_000 },
      );
    }
    await player.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      void v.play();
    });
    await vi.waitFor(async () => expect((await state()).at).toBeGreaterThan(0.1), {
      timeout: 10_000,
    });
    expect(await state()).toMatchObject({ error: null, duration: 3 });

    // The same browser again (its player re-reading the file, a reload): no view spent.
    const again = await visit.context().request.get(upload!.url);
    expect(again.status()).toBe(200);
    expect((await again.body()).equals(video)).toBe(true);
    for (const [start, end] of [
      [1000, 4999],
      [video.length - 2000, video.length - 1],
      [0, 99],
    ] as const) {
      const part = await visit.context().request.get(upload!.url, {
        headers: { range: `bytes=${start}-${end}` },
      });
      expect(part.status(), `bytes ${start}-${end}`).toBe(206);
      expect((await part.body()).equals(video.subarray(start, end + 1))).toBe(true);
    }

    const next = await visitSignedOut(upload!.url);
    expect(next.response.status()).toBe(410);
    await next.visit.getByRole('heading', { name: 'This link has been used up' }).waitFor();
    await page.reload();
    await card('clip.mp4').getByText('No views left').waitFor();
    expect(pageErrors()).toEqual([]);
  });
});
