/**
 * Email over SMTP (nodemailer), when SMTP_URL is set. Nothing pretends to send: without it,
 * `configured` is false and every send answers `{ sent: false }`; a server that refuses or does
 * not answer is reported the same way within MAIL_TIMEOUT_MS. Logs name the recipient and the
 * failure, never the message (it may hold a temporary password or an invitation).
 */
import type { Transporter } from 'nodemailer';
import type { Logger } from './logger.ts';
import { within } from './within.ts';

export const MAIL_TIMEOUT_MS = 10_000;

export type Mail = { to: string; subject: string; text: string; html: string };
export type MailResult = { sent: true } | { sent: false; reason: 'not-configured' | 'failed' };

export type Mailer = {
  configured: boolean;
  send(mail: Mail): Promise<MailResult>;
};

export function createMailer(deps: {
  smtpUrl: string | undefined;
  from: string;
  log: Logger;
  timeoutMs?: number;
}): Mailer {
  const { smtpUrl, from, log } = deps;
  const timeoutMs = deps.timeoutMs ?? MAIL_TIMEOUT_MS;
  if (!smtpUrl) {
    return { configured: false, send: async () => ({ sent: false, reason: 'not-configured' }) };
  }
  // nodemailer is loaded with the first mail: many instances never send one.
  let transport: Promise<Transporter> | null = null;
  const transportReady = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(smtpUrl, {
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      }),
    ));
  // Where the mail goes, for the log: the host only (the URL holds the credentials).
  const server = new URL(smtpUrl).host;

  return {
    configured: true,
    async send(mail) {
      try {
        await within(
          transportReady().then((t) => t.sendMail({ from, ...mail })),
          timeoutMs,
        );
        return { sent: true };
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        log.warn({ to: mail.to, server, reason }, 'email not sent');
        return { sent: false, reason: 'failed' };
      }
    },
  };
}
