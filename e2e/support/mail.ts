/**
 * A real SMTP server inside the test process (smtp-server, messages parsed by mailparser): start
 * it first, then the app with `SMTP_URL: smtp.url`, and read what the app sent. The server's own
 * tests use the same helper, so both read mail the same way.
 */
export { startSmtp, type ReceivedMail, type TestSmtp } from '../../server/test/mail.ts';
import type { ReceivedMail } from '../../server/test/mail.ts';

/** The invitation link of an email (PUBLIC_URL/register?invite=CODE), from its text part. */
export function inviteLinkIn(mail: ReceivedMail): string {
  const link = /https?:\/\/\S+\/register\?invite=[\w-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no invitation link in "${mail.subject}":\n${mail.text}`);
  return link;
}
