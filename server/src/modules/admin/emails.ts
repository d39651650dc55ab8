/**
 * The emails Upshot sends, each as plain text and simple HTML: the site's name and address, the
 * link, and how long it works. Only the invitation email sent on an administrator's request
 * carries a temporary password.
 */
import { escapeHtml, formatUtcDateTime } from '../../lib/format.ts';
import type { Mail } from '../../lib/mailer.ts';

export type Site = { name: string; url: string };

/** Paragraphs as text and as HTML; a link is shown as itself. */
type Block = string | { link: string } | { code: string };

function mail(to: string, subject: string, blocks: Block[], site: Site): Mail {
  const text = blocks
    .map((b) => (typeof b === 'string' ? b : 'link' in b ? b.link : `    ${b.code}`))
    .concat(`-- \n${site.name} · ${site.url}`)
    .join('\n\n');
  const html = `<!doctype html><html><body style="font-family: system-ui, sans-serif; line-height: 1.5">
${blocks
  .map((b) =>
    typeof b === 'string'
      ? `<p style="white-space: pre-wrap">${escapeHtml(b)}</p>`
      : 'link' in b
        ? `<p><a href="${escapeHtml(b.link)}">${escapeHtml(b.link)}</a></p>`
        : `<p><code style="font-size: 1.1em">${escapeHtml(b.code)}</code></p>`,
  )
  .join('\n')}
<p style="color: #666">${escapeHtml(site.name)} · <a href="${escapeHtml(site.url)}">${escapeHtml(site.url)}</a></p>
</body></html>`;
  return { to, subject, text, html };
}

export function invitationEmail(input: {
  to: string;
  username: string;
  link: string;
  expiresAt: string;
  approved?: boolean;
  site: Site;
}): Mail {
  const { site } = input;
  return mail(
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
  return mail(
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

export function rejectionEmail(input: { to: string; name: string; site: Site }): Mail {
  const { site } = input;
  return mail(
    input.to,
    `Your request for ${site.name}`,
    [
      `Hello ${input.name},`,
      `Your request for access to ${site.name} (${site.url}) was not approved.`,
    ],
    site,
  );
}

export function newRequestEmail(input: {
  to: string;
  request: { name: string; email: string; reason: string };
  site: Site;
}): Mail {
  const { site, request } = input;
  return mail(
    input.to,
    `New access request on ${site.name}: ${request.name}`,
    [
      `${request.name} (${request.email}) asked for access:`,
      request.reason,
      'Review it on the Admin screen:',
      { link: `${site.url}/admin` },
    ],
    site,
  );
}
