/**
 * The emails about access requests: the notice of a rejection, and the notification of a new
 * request to administrators who want one (an approval sends the users module's invitation).
 */
import { composeMail, type Site } from '../../lib/email-layout.ts';
import type { Mail } from '../../lib/mailer.ts';

export function rejectionEmail(input: { to: string; name: string; site: Site }): Mail {
  const { site } = input;
  return composeMail(
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
  return composeMail(
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
