/**
 * Hostile files opened in Chromium (the list is server/test/hostile-files.ts, whose headers the
 * server's own test checks): a signed-in user follows each one's link, public and signed, and
 * no payload runs. Whatever the browser shows (a download, a picture, text, a PDF viewer) is
 * never a document of the app's origin: a file's page has an opaque origin (the sandbox), so
 * even a script that did run could not reach the user's session; the one exception, the
 * browser's own player page for a video or a song, runs no script at all.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_FILES, XSS_MARK } from '../../server/test/hostile-files.ts';
import { launchBrowser } from '../support/browser.ts';
import { apiSignIn, apiUpload } from '../support/session.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const ADMIN = { email: 'hostile@example.com', password: 'e2e-hostile-password' };

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let token: string;
const ran: string[] = [];
const dialogs: string[] = [];

beforeAll(async () => {
  server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  token = await apiSignIn(server.url, ADMIN.email, ADMIN.password);
  browser = await launchBrowser();
  page = browser.page;
  page.on('console', (message) => {
    if (message.text().includes(XSS_MARK)) ran.push(`${page.url()}: ${message.text()}`);
  });
  page.on('dialog', (dialog) => {
    dialogs.push(`${page.url()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  // Signed in, as a victim following a link would be: the session sits in the app's storage.
  await page.goto(`${server.url}/login`);
  await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * Follows a link: answers what the window then shows, or null when the browser took it as a
 * download (Chromium then leaves the page where it was).
 */
async function open(url: string): Promise<{ origin: string; contentType: string } | null> {
  try {
    await page.goto(url, { waitUntil: 'load' });
  } catch (err) {
    if (/Download is starting|net::ERR_ABORTED/.test(String(err))) return null;
    throw err;
  }
  return page.evaluate(() => ({ origin: window.origin, contentType: document.contentType }));
}

describe('hostile files followed in Chromium by a signed-in user', () => {
  it.each(HOSTILE_FILES)('$name ($filename) runs nothing', async (file) => {
    const data = Buffer.from(file.body, 'latin1');
    const upload = (isPublic: boolean) =>
      apiUpload(server.url, token, {
        name: file.filename,
        bytes: data,
        type: file.claimed ?? '',
        isPublic,
      });
    const publicOne = await upload(true);
    const privateOne = await upload(false);
    const access = await fetch(`${server.url}/api/uploads/${privateOne.id}/access-url`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const signedUrl = ((await access.json()) as { url: string }).url;

    for (const url of [publicOne.url, signedUrl]) {
      const shown = await open(url);
      if (file.disposition === 'attachment') expect(shown, `${url} is a download`).toBeNull();
      // Shown or not, nothing of the app's origin: a file's document is sandboxed. The player
      // page of a video or a song keeps the origin (its own range requests need it) and runs
      // no script: `ran` and `dialogs` below stay empty.
      const media = /^(video|audio)\//.test(shown?.contentType ?? '');
      if (shown && !media) expect(shown.origin, `${url} (${shown.contentType})`).toBe('null');
    }
    expect(ran).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it("never runs an uploaded script as one of the app's own pages", async () => {
    const js = HOSTILE_FILES.find((file) => file.filename === 'app.js')!;
    const uploaded = await apiUpload(server.url, token, {
      name: 'loader.js',
      bytes: Buffer.from(js.body, 'latin1'),
      type: 'text/javascript',
      isPublic: true,
    });
    // What a script injected into the app would try: the app's pages trust their own origin's
    // scripts, and the upload is served from it. Served as text, nosniff refuses it.
    await page.goto(`${server.url}/login`);
    const outcome = await page.evaluate(
      (src) =>
        new Promise<string>((resolve) => {
          const script = document.createElement('script');
          script.src = src;
          script.onload = () => resolve('loaded');
          script.onerror = () => resolve('refused');
          document.head.append(script);
        }),
      new URL(uploaded.url).pathname,
    );
    expect(outcome).toBe('refused');
    expect(ran).toEqual([]);
  });

  it('left the session where it was, unread and unchanged, and nothing ran late', async () => {
    await page.goto(`${server.url}/login`);
    await expect(page.evaluate(() => localStorage.getItem('auth_token'))).resolves.toBe(token);
    const me = await fetch(`${server.url}/api/auth/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.status).toBe(200);
    expect(ran).toEqual([]);
    expect(dialogs).toEqual([]);
  });
});
