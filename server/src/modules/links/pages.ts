/**
 * The pages a link answers instead of its file: the password form (401), a link that has
 * expired or been used up (410), and too many wrong passwords (429). None names the file: a
 * protected or dead link shows nothing of what it held.
 */
import { escapeHtml } from '../../lib/format.ts';
import { htmlPage } from '../../lib/html-page.ts';

/** The password form; it posts to the link itself (the page's own address), never in a URL. */
export function passwordPage(wrong: boolean): string {
  return htmlPage(
    'Password required',
    `<h1>This link is protected</h1>
<p>Enter its password to open the file.</p>
<form method="post">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus${wrong ? ' aria-invalid="true" aria-describedby="password-error"' : ''}>
${wrong ? '<p id="password-error" class="error" role="alert">Wrong password. Try again.</p>\n' : ''}<button type="submit">Open</button>
</form>`,
  );
}

/** A password posted to a link that does not exist, or that the caller may not see. */
export function noSuchLinkPage(): string {
  return htmlPage(
    'Link not found',
    `<h1>This link does not exist</h1>
<p>Check the address, or ask whoever shared it for a new one.</p>`,
  );
}

/** A password form posted from another site's page (which could spend a visitor's attempts). */
export function crossSitePage(): string {
  return htmlPage(
    'Not sent from this link',
    `<h1>Open the link itself</h1>
<p>Its password can be entered only on its own page.</p>`,
  );
}

export function gonePage(reason: 'expired' | 'used-up'): string {
  return reason === 'expired'
    ? htmlPage(
        'Link expired',
        `<h1>This link has expired</h1>
<p>The file it pointed to is no longer available.</p>`,
      )
    : htmlPage(
        'Link used up',
        `<h1>This link has been used up</h1>
<p>It could be opened a limited number of times, and none are left.</p>`,
      );
}

export function tooManyPasswordsPage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait =
    retryAfterSeconds < 120
      ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`
      : `${minutes} minutes`;
  return htmlPage(
    'Too many attempts',
    `<h1>Too many wrong passwords</h1>
<p>Try again in ${escapeHtml(wait)}.</p>`,
  );
}
