/**
 * The emails about a user's account: the invitation to choose a password (made by an
 * administrator, or by approving an access request), and the credentials an administrator
 * sends, the only email that carries a temporary password.
 */
import { composeMail, type Site } from '../../lib/email-layout.ts';
import { formatUtcDateTime } from '../../lib/format.ts';
import type { Mail } from '../../lib/mailer.ts';

export function invitationEmail(input: {
  to: string;
  username: string;
  link: string;
  expiresAt: string;
  approved?: boolean;
  site: Site;
}): Mail {
  const { site } = input;
  return composeMail(
    input.to,
    input.approved
      ? `Your request for ${site.name} was approved`
      : `You are invited to ${site.name}`,
    [
      `Hello ${input.username},`,
      input.approved
        ? `Your request for access to ${site.name} (${site.url}) was approved. Choose your password to finish setting up your account:`
        : `An account on ${site.name} (${site.url}) was made for you. Choose your password to finish setting it up:`,
      { link: input.link },
      `This link works once and expires on ${formatUtcDateTime(input.expiresAt)}.`,
    ],
    site,
  );
}

export function credentialsEmail(input: {
  to: string;
  username: string;
  tempPassword: string;
  inviteLink: string | null;
  site: Site;
}): Mail {
  const { site } = input;
  return composeMail(
    input.to,
    `Your account on ${site.name}`,
    [
      `Hello ${input.username},`,
      `An account on ${site.name} was made for you. Sign in at ${site.url}/login with this email address and the temporary password below; you will then choose your own.`,
      { code: input.tempPassword },
      ...(input.inviteLink
        ? [
            'Or choose your password straight away with this link (it works once, for 7 days):',
            { link: input.inviteLink },
          ]
        : []),
    ],
    site,
  );
}
