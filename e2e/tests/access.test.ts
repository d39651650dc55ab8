/**
 * The ways into Upshot, end to end against the real server and a real SMTP server:
 * 1. a visitor requests access, an admin approves it, the invitation email arrives, the visitor
 *    sets a password from its link, lands on the Dashboard and uploads a file;
 * 2. an admin creates a user without an invitation and hands on the temporary password; the user
 *    signs in with it, must choose their own password, and reaches the Dashboard.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { inviteLinkIn, startSmtp, type TestSmtp } from '../support/mail.ts';
import { solidPng } from '../support/png.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { signInRequest, signInThroughForm, watchPageErrors } from '../support/session.ts';
import { expectToast, firstNewToast, markToastsSeen, openAccountMenu } from '../support/toasts.ts';
import { createUser } from '../support/users.ts';

const ADMIN = {
  email: 'gatekeeper@example.com',
  password: 'e2e-gatekeeper-pw',
  username: 'gatekeeper',
};
const VISITOR = { email: 'rita@example.com', name: 'Rita Visitor', password: 'rita-chose-this-1' };
const NEWCOMER = { email: 'tess@example.com', username: 'tess', password: 'tess-chose-this-1' };

let smtp: TestSmtp;
let server: RunningServer;
let admin: Awaited<ReturnType<typeof launchBrowser>>;
let visitor: Awaited<ReturnType<typeof launchBrowser>>;
let adminErrors: () => string[];
let visitorErrors: () => string[];

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({
    ADMIN_EMAIL: 'first-admin@example.com',
    ADMIN_PASSWORD: 'e2e-first-admin-pw',
    ADMIN_USERNAME: 'first-admin',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Upshot <upshot@example.com>',
  });
  await createUser(server, { ...ADMIN, role: 'admin' });
  // Two browsers: the visitor's session and the admin's never share a profile.
  admin = await launchBrowser();
  visitor = await launchBrowser();
  admin.page.setDefaultTimeout(15_000);
  visitor.page.setDefaultTimeout(15_000);
  adminErrors = watchPageErrors(admin.page);
  visitorErrors = watchPageErrors(visitor.page);
  await admin.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: server.url,
  });
  await signInThroughForm(admin.page, server.url, ADMIN.email, ADMIN.password);
});

// A failed step shows what the server said meanwhile (it logs warnings and errors only).
afterEach((context) => {
  if (context.task.result?.state === 'fail') console.error(server.output().slice(-4000));
});

afterAll(async () => {
  await visitor?.close();
  await admin?.close();
  await server?.stop();
  await smtp?.close();
});

describe('journey 1: request access, approval, invitation email, first upload', () => {
  it('a visitor requests access from the public form', async () => {
    const page = visitor.page;
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Request Access' }).click();
    await page.waitForURL(`${server.url}/request-access`);
    // The page settles first (its lazy chunk and the session check): typing into a form that
    // is then drawn again would leave it empty, and the browser would refuse to send it.
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Email', { exact: true }).fill(VISITOR.email);
    await page.getByLabel('Full name').fill(VISITOR.name);
    await page.getByLabel('Reason').fill('I publish screenshots for the docs team.');
    for (const [label, value] of [
      ['Full name', VISITOR.name],
      ['Reason', 'I publish screenshots for the docs team.'],
    ] as const) {
      if ((await page.getByLabel(label).inputValue()) !== value) {
        throw new Error(`the ${label} field lost its text before sending`);
      }
    }
    await markToastsSeen(page);
    await page.getByRole('button', { name: 'Submit Request' }).click();
    // Whichever toast comes, so a refusal fails the test with the server's words.
    const toast = firstNewToast(page);
    await expect(toast.locator('[data-title]').innerText()).resolves.toBe(
      'Access request submitted successfully!',
    );
    await page.getByRole('heading', { name: 'Request Submitted' }).waitFor();
    await page.getByRole('link', { name: 'Back to Login' }).waitFor();
  });

  it('the admin sees the pending request and approves it', async () => {
    const page = admin.page;
    await page.getByRole('navigation').getByRole('link', { name: 'Admin', exact: true }).click();
    await page.waitForURL(`${server.url}/admin`);
    await page.getByRole('tab', { name: 'Access Requests' }).click();
    const table = page.getByRole('table', { name: 'Access requests' });
    const row = table.getByRole('row').filter({ hasText: VISITOR.email });
    await row.getByText('Pending').waitFor();
    await expect(row.textContent()).resolves.toContain('I publish screenshots for the docs team.');

    await expectToast(page, 'Request approved - notification email sent', () =>
      row.getByRole('button', { name: `Approve request from ${VISITOR.name}` }).click(),
    );
    await row.getByText('Approved').waitFor();
    await expect(row.getByRole('button', { name: /^Approve/ }).count()).resolves.toBe(0);
  });

  it('the visitor opens the emailed invitation, sets a password and lands on the Dashboard', async () => {
    const mail = await smtp.waitFor((m) => m.envelope.to.includes(VISITOR.email), 15_000);
    expect(mail.subject).toMatch(/^Your request for Upshot .* was approved$/);
    expect(mail.to).toEqual([VISITOR.email]);
    const link = inviteLinkIn(mail);
    expect(link.startsWith(`${server.url}/register?invite=`)).toBe(true);

    const page = visitor.page;
    await page.goto(link);
    await page.getByRole('heading', { name: 'Set your password' }).waitFor();
    await expect(page.getByLabel('Username', { exact: true }).inputValue()).resolves.toBe(
      'rita.visitor',
    );
    await page.getByLabel('Password', { exact: true }).fill(VISITOR.password);
    await page.getByLabel('Confirm password').fill(VISITOR.password);
    await page.getByRole('button', { name: 'Set Password' }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await page.getByText('Welcome back, rita.visitor').waitFor();

    // The link worked once: opened again, it is no longer valid.
    const again = await fetch(
      `${server.url}/api/auth/invites/${new URL(link).searchParams.get('invite')}`,
    );
    expect(again.status).toBe(400);
  });

  it('and uploads a file from the Uploads page', async () => {
    const page = visitor.page;
    await page.getByRole('navigation').getByRole('link', { name: 'Uploads', exact: true }).click();
    await page.waitForURL(`${server.url}/uploads`);
    await page.getByText('No uploads yet').waitFor();
    await page.getByRole('button', { name: 'Upload Files' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByLabel('Choose files to upload')
      .setInputFiles([
        { name: 'first-shot.png', mimeType: 'image/png', buffer: solidPng(64, 64, [200, 80, 40]) },
      ]);
    await expectToast(page, '1 file(s) uploaded successfully', () =>
      dialog.getByRole('button', { name: 'Upload 1 file(s)' }).click(),
    );
    await page.getByRole('article', { name: 'first-shot.png' }).waitFor();
    expect(visitorErrors()).toEqual([]);
  });
});

describe('journey 2: a user created with a temporary password chooses their own', () => {
  let tempPassword: string;

  it('the admin creates the user without an invitation and reads the temporary password', async () => {
    const page = admin.page;
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Create User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create User' });
    await dialog.getByLabel('Email', { exact: true }).fill(NEWCOMER.email);
    await dialog.getByLabel('Username', { exact: true }).fill(NEWCOMER.username);
    await dialog.getByRole('checkbox', { name: 'Send invite email' }).click();
    await expectToast(page, 'User created successfully', () =>
      dialog.getByRole('button', { name: 'Create User' }).click(),
    );

    const alert = page.getByRole('alertdialog', { name: 'User created' });
    await expect(alert.getByLabel('Email', { exact: true }).inputValue()).resolves.toBe(
      NEWCOMER.email,
    );
    await expect(alert.getByLabel('Username', { exact: true }).inputValue()).resolves.toBe(
      NEWCOMER.username,
    );
    tempPassword = await alert.getByLabel('Temporary password', { exact: true }).inputValue();
    expect(tempPassword.length).toBeGreaterThanOrEqual(8);
    await alert.getByRole('button', { name: 'Copy temporary password' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(tempPassword);
    await alert.getByRole('button', { name: 'Done' }).click();
    await alert.waitFor({ state: 'detached' });
    await page
      .getByRole('table', { name: 'Users' })
      .getByRole('row', { name: NEWCOMER.username })
      .waitFor();
    // No invitation was asked for: nothing was emailed to the new user.
    expect(smtp.messages.filter((m) => m.envelope.to.includes(NEWCOMER.email))).toEqual([]);
    expect(adminErrors()).toEqual([]);
  });

  it('the user signs in with it and must choose a new password before anything else', async () => {
    const page = visitor.page;
    await openAccountMenu(page);
    await expectToast(page, 'Logged out successfully', () =>
      page.getByRole('menuitem', { name: 'Logout' }).click(),
    );
    await page.waitForURL(`${server.url}/login`);

    await signInThroughForm(page, server.url, NEWCOMER.email, tempPassword);
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    await expect(page.getByRole('navigation').count()).resolves.toBe(0);

    await page.getByLabel('Temporary password', { exact: true }).fill(tempPassword);
    await page.getByLabel('New password', { exact: true }).fill(NEWCOMER.password);
    await page.getByLabel('Confirm new password').fill(NEWCOMER.password);
    await expectToast(page, 'Password changed successfully', () =>
      page.getByRole('button', { name: 'Set Password' }).click(),
    );
    await page.getByText(`Welcome back, ${NEWCOMER.username}`).waitFor();
    expect(page.url()).toBe(`${server.url}/dashboard`);

    // The temporary password is gone; the chosen one signs in.
    const signIn = (password: string) => signInRequest(server.url, NEWCOMER.email, password);
    expect((await signIn(tempPassword)).status).toBe(401);
    const fresh = (await (await signIn(NEWCOMER.password)).json()) as {
      user: { mustChangePassword: boolean };
    };
    expect(fresh.user.mustChangePassword).toBe(false);
    expect(visitorErrors()).toEqual([]);
  });
});
