/**
 * The layout every email Upshot sends shares: paragraphs as plain text and simple HTML, ending
 * with the site's name and address. The texts themselves live with the module that sends them.
 */
import { escapeHtml } from './format.ts';
import type { Mail } from './mailer.ts';

export type Site = { name: string; url: string };

/** How the emails name this server: "Upshot (host)" and PUBLIC_URL. */
export function siteOf(publicUrl: string): Site {
  return { name: `Upshot (${new URL(publicUrl).host})`, url: publicUrl };
}

/** A paragraph, a link (shown as itself), or a code set apart. */
export type Block = string | { link: string } | { code: string };

export function composeMail(to: string, subject: string, blocks: Block[], site: Site): Mail {
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
