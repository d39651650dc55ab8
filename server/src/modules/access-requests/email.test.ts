/**
 * Email through a real SMTP server started here: invitations when an administrator creates a
 * user or approves a request (their link then registers), rejection notices, new-request
 * notifications for administrators who want them, and credentials sent on request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aRequest, submitPending, submitRequest } from '../../../test/access-requests.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../../../test/mail.ts';
import { createUser, signIn } from '../../../test/users.ts';

const SITE = 'https://up.example.com';
let smtp: TestSmtp;
let ctx: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>;
beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestContext({ SMTP_URL: smtp.url, PUBLIC_URL: SITE });
  admin = await signIn(ctx, 'admin');
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

type Headers = Record<string, string>;
const call = (
  c: TestContext,
  method: 'POST' | 'PATCH',
  url: string,
  auth: Headers,
  body: unknown,
) =>
  c.app.inject({
    method,
    url,
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const mailTo = (address: string) => (m: ReceivedMail) =>
  m.envelope.to.some((to) => sameAddress(to, address));
const allMailTo = (address: string) => smtp.messages.filter(mailTo(address));

const INVITE_LINK = /https:\/\/up\.example\.com\/register\?invite=([A-Za-z0-9_-]+)/;
/** How the emails show a date: "Nov 30, 2026" is part of any en-US rendering of it. */
const day = (iso: string) =>
  new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(iso));

let ip = 0;
const registerWith = (c: TestContext, inviteCode: string, password: string) =>
  c.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { inviteCode, password },
    remoteAddress: `10.83.0.${++ip}`,
  });

/** The mail carries the link in its text and HTML; the code in it registers. */
async function expectWorkingLink(mail: ReceivedMail, inviteUrl: string) {
  expect(mail.text).toContain(inviteUrl);
  expect(mail.html).toContain(`href="${inviteUrl}"`);
  const code = INVITE_LINK.exec(mail.text)![1]!;
  expect(`${SITE}/register?invite=${code}`).toBe(inviteUrl);
  const res = await registerWith(ctx, code, 'chosen from the email');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ user: { id: string } }>();
}

describe('invitations', () => {
  it('creating a user with sendInvite emails them once: the site, the link and its expiry', async () => {
    const res = await call(ctx, 'POST', '/api/users', admin.auth, {
      email: 'Newcomer@Example.com',
      username: 'newcomer',
      sendInvite: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created.emailSent).toBe(true);

    const mail = await smtp.waitFor(mailTo('newcomer@example.com'));
    expect(allMailTo('newcomer@example.com')).toHaveLength(1);
    // (nodemailer writes the domain in lower case.)
    expect(mail.envelope).toEqual({
      from: 'upshot@up.example.com',
      to: [expect.stringMatching(/^Newcomer@example\.com$/i)],
    });
    expect(mail.to).toEqual([expect.stringMatching(/^Newcomer@example\.com$/i)]);
    expect(mail.auth).toEqual({ username: 'user', password: 'pass' });
    expect(mail.subject).toContain('Upshot');
    expect(mail.subject).toContain('up.example.com');
    expect(mail.text).toContain('newcomer');
    const invite = await ctx.modules.users.service.get(created.user.id);
    expect(invite.must_change_password).toBe(1);
    const info = await ctx.app.inject({
      method: 'GET',
      url: `/api/auth/invites/${created.inviteCode}`,
      remoteAddress: '10.83.1.1',
    });
    const { expiresAt } = info.json<{ expiresAt: string }>();
    expect(mail.text).toContain(day(expiresAt));
    expect(mail.html).toContain(day(expiresAt));
    // The link is enough: the temporary password stays on the admin's screen.
    expect(mail.text).not.toContain(created.tempPassword);
    expect(mail.html).not.toContain(created.tempPassword);

    const registered = await expectWorkingLink(mail, created.inviteUrl);
    expect(registered.user.id).toBe(created.user.id);
  });

  it('approving a request emails the requester a link that works', async () => {
    const request = await submitPending(ctx, { name: 'Linus Example' });
    const res = await call(ctx, 'PATCH', `/api/access-requests/${request.id}`, admin.auth, {
      status: 'approved',
    });
    expect(res.statusCode, res.body).toBe(200);
    const decided = res.json();
    expect(decided.emailSent).toBe(true);
    const mail = await smtp.waitFor(mailTo(request.email));
    expect(allMailTo(request.email)).toHaveLength(1);
    expect(mail.subject).toMatch(/approved/i);
    expect(mail.subject).toContain('up.example.com');
    expect(mail.text).toContain('linus.example');
    const registered = await expectWorkingLink(mail, decided.inviteUrl);
    expect(registered.user.id).toBe(decided.user.id);
  });

  it('rejecting emails the requester a short notice, without a link', async () => {
    const request = await submitPending(ctx);
    const res = await call(ctx, 'PATCH', `/api/access-requests/${request.id}`, admin.auth, {
      status: 'rejected',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().emailSent).toBe(true);
    const mail = await smtp.waitFor(mailTo(request.email));
    expect(allMailTo(request.email)).toHaveLength(1);
    expect(mail.subject).toContain('up.example.com');
    expect(mail.text).toContain(request.name);
    expect(mail.text).toMatch(/not approved/);
    expect(mail.text).not.toMatch(/register|invite=/);
  });
});

describe('POST /api/email/send-invite', () => {
  it('emails a user their temporary password, and the invitation link when given', async () => {
    const created = await call(ctx, 'POST', '/api/users', admin.auth, {
      email: 'by-hand@example.com',
      username: 'byhand',
    });
    const { user, tempPassword } = created.json();
    const res = await call(ctx, 'POST', '/api/email/send-invite', admin.auth, {
      to: user.email,
      username: user.username,
      tempPassword,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ emailSent: true });
    const mail = await smtp.waitFor(mailTo(user.email));
    expect(mail.subject).toContain('up.example.com');
    expect(mail.text).toContain(tempPassword);
    expect(mail.html).toContain(tempPassword);
    expect(mail.text).toContain(`${SITE}/login`);
    expect(mail.text).not.toMatch(INVITE_LINK);

    const withInvite = await call(ctx, 'POST', '/api/users', admin.auth, {
      email: 'by-hand-2@example.com',
      username: 'byhand2',
      sendInvite: true,
    });
    const second = withInvite.json();
    await smtp.waitFor(mailTo(second.user.email)); // the invitation itself
    const again = await call(ctx, 'POST', '/api/email/send-invite', admin.auth, {
      to: second.user.email,
      username: second.user.username,
      tempPassword: second.tempPassword,
      inviteCode: second.inviteCode,
    });
    expect(again.statusCode, again.body).toBe(200);
    const credentials = await smtp.waitFor(
      (m) => mailTo(second.user.email)(m) && m.text.includes(second.tempPassword),
    );
    await expectWorkingLink(credentials, second.inviteUrl);

    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', user.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['user.created', 'user.invite_sent']);
  });

  it('is for administrators only and takes no other field', async () => {
    const user = await signIn(ctx);
    const body = { to: 'x@example.com', username: 'x', tempPassword: 'abcdefgh' };
    const before = smtp.messages.length;
    expect((await call(ctx, 'POST', '/api/email/send-invite', {}, body)).statusCode).toBe(401);
    expect((await call(ctx, 'POST', '/api/email/send-invite', user.auth, body)).statusCode).toBe(
      403,
    );
    for (const bad of [
      { ...body, subject: 'Pay me' },
      { ...body, to: 'not-an-email' },
      { to: body.to, username: body.username },
    ]) {
      const res = await call(ctx, 'POST', '/api/email/send-invite', admin.auth, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(smtp.messages.length).toBe(before);
  });
});

describe('new access requests', () => {
  it('notify every active administrator who wants email, and nobody else', async () => {
    // A context of its own, so the administrators are exactly these.
    const own = await createTestContext({ SMTP_URL: smtp.url, PUBLIC_URL: SITE });
    try {
      const [wants, alsoWants, optedOut] = [
        await signIn(own, 'admin'),
        await signIn(own, 'admin'),
        await signIn(own, 'admin'),
      ];
      const inactive = await createUser(own, { role: 'admin' });
      const plain = await createUser(own);
      const off = await call(own, 'PATCH', '/api/preferences', optedOut.auth, {
        emailNotifications: false,
      });
      expect(off.statusCode, off.body).toBe(200);
      const deactivated = await call(own, 'PATCH', `/api/users/${inactive.row.id}`, wants.auth, {
        isActive: false,
      });
      expect(deactivated.statusCode).toBe(200);

      // Requests that make nothing to act on come first; they must not notify anyone.
      const existing = aRequest({ email: plain.row.email });
      expect((await submitRequest(own, existing)).statusCode).toBe(201);
      const first = await submitPending(own);
      const duplicate = aRequest({ email: first.email, name: 'Duplicate Dora' });
      expect((await submitRequest(own, duplicate)).statusCode).toBe(409);

      const request = aRequest({
        name: '<b>Eve</b> & co',
        reason: 'We make films.\nWe need to share cuts.',
      });
      expect((await submitRequest(own, request)).statusCode).toBe(201);
      const about = (m: ReceivedMail) => m.text.includes(request.email);
      await smtp.waitFor((m) => about(m) && mailTo(wants.user.email)(m));
      await smtp.waitFor((m) => about(m) && mailTo(alsoWants.user.email)(m));
      const notices = smtp.messages.filter(about);
      expect(notices.flatMap((m) => m.envelope.to).sort()).toEqual(
        [wants.user.email, alsoWants.user.email].sort(),
      );
      const notice = notices[0]!;
      expect(notice.subject).toContain('<b>Eve</b> & co');
      expect(notice.subject).toContain('up.example.com');
      expect(notice.text).toContain('We make films.\nWe need to share cuts.');
      expect(notice.text).toContain(`${SITE}/admin`);
      expect(notice.html).toContain('&lt;b&gt;Eve&lt;/b&gt; &amp; co');
      expect(notice.html).not.toContain('<b>Eve</b>');

      // The first request notified the same two; the others, sent before it, nobody.
      const everyone = [wants, alsoWants, optedOut].map((a) => a.user.email);
      for (const email of [...everyone, inactive.row.email, plain.row.email]) {
        const got = smtp.messages.filter(mailTo(email));
        expect(
          got.some((m) => m.text.includes(plain.row.email)),
          email,
        ).toBe(false);
        expect(
          got.some((m) => m.text.includes('Duplicate Dora')),
          email,
        ).toBe(false);
      }
      // Notifications go out after the answer: wait for the first request's too.
      for (const admin of [wants, alsoWants]) {
        await smtp.waitFor((m) => m.text.includes(first.email) && mailTo(admin.user.email)(m));
      }
      const aboutFirst = smtp.messages.filter((m) => m.text.includes(first.email));
      expect(aboutFirst.flatMap((m) => m.envelope.to).sort()).toEqual(
        [wants.user.email, alsoWants.user.email].sort(),
      );
    } finally {
      await own.close();
    }
  });
});
