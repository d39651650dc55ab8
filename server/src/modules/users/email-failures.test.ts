/**
 * When email does not go out: not configured, a server that refuses, a server that never
 * answers. Nothing pretends to send, the account is made all the same, the answer says so
 * within the mail timeout, and the log names the failure without any secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitPending } from '../../../test/access-requests.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { startSilentServer, startSmtp, type TestSmtp } from '../../../test/mail.ts';
import { signIn } from '../../../test/users.ts';
import { createMailer, MAIL_TIMEOUT_MS } from '../../lib/mailer.ts';
import { credentialsEmail, invitationEmail } from './emails.ts';

const SITE = 'https://up.example.com';
type Headers = Record<string, string>;
const post = (c: TestContext, url: string, auth: Headers, body: unknown) =>
  c.app.inject({
    method: 'POST',
    url,
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const approve = (c: TestContext, id: string, auth: Headers) =>
  c.app.inject({
    method: 'PATCH',
    url: `/api/access-requests/${id}`,
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ status: 'approved' }),
  });

let seq = 0;
const newUser = (sendInvite = true) => {
  seq += 1;
  return { email: `failing${seq}@example.com`, username: `failing${seq}`, sendInvite };
};

/** The user is there, whatever happened to the email. */
async function expectCreated(c: TestContext, res: { statusCode: number; json: () => unknown }) {
  expect(res.statusCode).toBe(201);
  const body = res.json() as { user: { id: string }; inviteUrl: string; tempPassword: string };
  expect((await c.modules.users.service.get(body.user.id)).is_active).toBe(1);
  expect(body.inviteUrl).toMatch(/^https:\/\/up\.example\.com\/register\?invite=/);
  expect(body.tempPassword).toEqual(expect.any(String));
  return body;
}

describe('without SMTP configured', () => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof signIn>>;
  beforeAll(async () => {
    ctx = await createTestContext({ PUBLIC_URL: SITE });
    admin = await signIn(ctx, 'admin');
  });
  afterAll(() => ctx.close());

  it('says so: emailSent false, and send-invite is a 503 naming the missing setting', async () => {
    const res = await post(ctx, '/api/users', admin.auth, newUser());
    const created = await expectCreated(ctx, res);
    expect(res.json()).toMatchObject({ emailSent: false });

    const sent = await post(ctx, '/api/email/send-invite', admin.auth, {
      to: 'failing@example.com',
      username: 'failing',
      tempPassword: created.tempPassword,
    });
    expect(sent.statusCode).toBe(503);
    expect(sent.json().error).toBe('email_not_sent');
    expect(sent.json().message).toMatch(/email is not configured/i);
    expect(sent.json().message).toContain('SMTP_URL');

    const request = await submitPending(ctx);
    const decided = await approve(ctx, request.id, admin.auth);
    expect(decided.statusCode).toBe(200);
    expect(decided.json()).toMatchObject({ emailSent: false, inviteUrl: expect.any(String) });
  });
});

describe('a mail server that refuses the recipient', () => {
  let smtp: TestSmtp;
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof signIn>>;
  beforeAll(async () => {
    smtp = await startSmtp({ refuseRecipient: true });
    ctx = await createTestContext({ SMTP_URL: smtp.url, PUBLIC_URL: SITE });
    admin = await signIn(ctx, 'admin');
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('is reported at once: the user is made with emailSent false, send-invite is a 503', async () => {
    const body = newUser();
    const started = Date.now();
    const res = await post(ctx, '/api/users', admin.auth, body);
    expect(Date.now() - started).toBeLessThan(3000);
    await expectCreated(ctx, res);
    expect(res.json().emailSent).toBe(false);
    // The server was asked, and said no.
    expect(await smtp.waitForRefusals(1)).toContain(body.email);
    expect(smtp.messages).toEqual([]);

    const sent = await post(ctx, '/api/email/send-invite', admin.auth, {
      to: body.email,
      username: body.username,
      tempPassword: res.json().tempPassword,
    });
    expect(sent.statusCode).toBe(503);
    expect(sent.json()).toEqual({
      error: 'email_not_sent',
      message: 'The mail server did not accept the email; send the details by hand',
    });

    const request = await submitPending(ctx);
    const decided = await approve(ctx, request.id, admin.auth);
    expect(decided.statusCode).toBe(200);
    expect(decided.json()).toMatchObject({ emailSent: false, inviteUrl: expect.any(String) });
    expect(await ctx.modules.users.service.findByEmail(request.email)).toBeDefined();
  });
});

describe('a mail server that never answers', () => {
  it(`is reported as not sent within ${MAIL_TIMEOUT_MS / 1000} s, and the user stays`, async () => {
    const silent = await startSilentServer();
    const ctx = await createTestContext({ SMTP_URL: silent.url, PUBLIC_URL: SITE });
    try {
      const admin = await signIn(ctx, 'admin');
      const started = Date.now();
      let answered = false;
      const creating = post(ctx, '/api/users', admin.auth, newUser()).finally(() => {
        answered = true;
      });
      // The server goes on serving others meanwhile.
      const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: admin.auth });
      expect(me.statusCode).toBe(200);
      expect(answered).toBe(false);

      const res = await creating;
      const elapsed = Date.now() - started;
      expect(elapsed).toBeLessThan(MAIL_TIMEOUT_MS + 2000);
      expect(elapsed).toBeGreaterThanOrEqual(MAIL_TIMEOUT_MS - 100);
      expect(silent.connections()).toBeGreaterThanOrEqual(1);
      await expectCreated(ctx, res);
      expect(res.json().emailSent).toBe(false);
    } finally {
      await ctx.close();
      await silent.close();
    }
  }, 30_000);
});

describe('the mailer log', () => {
  it('names the recipient and the failure, never the password, the invitation or the SMTP login', async () => {
    const site = { name: 'Upshot (up.example.com)', url: SITE };
    const tempPassword = 'Tmp9pass-word-XYZ';
    const code = 'secret-invite-code-0123456789abcdef';
    const link = `${SITE}/register?invite=${code}`;
    const mails = [
      credentialsEmail({
        to: 'a@example.com',
        username: 'a',
        tempPassword,
        inviteLink: link,
        site,
      }),
      invitationEmail({
        to: 'b@example.com',
        username: 'b',
        link,
        expiresAt: new Date().toISOString(),
        site,
      }),
    ];
    const servers = [
      await startSmtp({ refuseRecipient: true }),
      await startSmtp({ refuseData: true }),
    ];
    const silent = await startSilentServer();
    const records: { level: string; obj: object; msg: string }[] = [];
    const log = {
      info: (obj: object, msg: string) => records.push({ level: 'info', obj, msg }),
      warn: (obj: object, msg: string) => records.push({ level: 'warn', obj, msg }),
      error: (obj: object, msg: string) => records.push({ level: 'error', obj, msg }),
    };
    try {
      const urls = [...servers.map((s) => s.url), silent.url].map((url) =>
        url.replace('user:pass@', 'mailer:smtp-s3cret@'),
      );
      for (const url of urls) {
        const mailer = createMailer({
          smtpUrl: url,
          from: 'upshot@up.example.com',
          log,
          timeoutMs: 300,
        });
        for (const mail of mails)
          expect(await mailer.send(mail)).toEqual({ sent: false, reason: 'failed' });
      }
      expect(records).toHaveLength(urls.length * mails.length);
      for (const [i, r] of records.entries()) {
        expect(r.level).toBe('warn');
        expect(r.obj).toMatchObject({ to: mails[i % 2]!.to, reason: expect.any(String) });
      }
      const logged = JSON.stringify(records);
      for (const secret of [tempPassword, code, 'smtp-s3cret', 'mailer:']) {
        expect(logged).not.toContain(secret);
      }
      expect(servers[0]!.refused.length + servers[1]!.refused.length).toBe(4);
    } finally {
      for (const s of servers) await s.close();
      await silent.close();
    }
  });
});
