/**
 * The preview page's HTML: the upload's name, size and date, a Download button, and the file
 * shown by type. Everything from the upload (its name, its text) is escaped here; the page's
 * own script (web/src/preview/, found through the web build's manifest) highlights text, renders
 * Markdown through a sanitizer, and fetches what the server does not put in the page.
 */
import { PREVIEW_TEXT_BYTES } from '@upshot/contract';
import { escapeHtml, formatBytes, formatUtcDateTime } from '../../lib/format.ts';
import type { PreviewPage } from './preview.ts';
import { typeLabel } from './preview-kinds.ts';

/** The preview's script and stylesheets as the web build named them (null: not built). */
export type PreviewAssets = { script: string | null; styles: string[] };

export type PreviewPageInput = {
  page: PreviewPage;
  /** The raw link (with a signed link's query when the page was opened by one). */
  rawUrl: string;
  downloadUrl: string;
  /** A PDF's copy for the page's frame (the raw link's `?frame`). */
  frameUrl: string;
  assets: PreviewAssets;
  /** This answer's script nonce (its CSP's `script-src`). */
  nonce: string;
  /** The page's title (the uploader's title template, filled in). */
  title: string;
  /** <meta> and <link> tags for crawlers (OpenGraph, Twitter, oEmbed), already escaped. */
  tags: string;
};

const FILE_ICON = `<svg class="icon" viewBox="0 0 24 24" width="64" height="64" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z"/><path fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" d="M14 2v6h6"/></svg>`;

/**
 * Text made safe inside an element (not an attribute): `&` and `<` are what could start markup,
 * `>` is escaped too. Three plain passes: a 512 KiB text full of them takes 3 ms, against 10
 * with one pass calling a function per character.
 */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The text block: the server's escaped text, or an empty one the script fills from the link. */
function textBlock(page: PreviewPage, rawUrl: string, size: number): string {
  const { preview } = page;
  const language = preview.language ? ` data-language="${escapeHtml(preview.language)}"` : '';
  const tools = [
    preview.kind === 'markdown'
      ? '<button type="button" class="tool" id="source-toggle" aria-pressed="false" hidden>Source</button>'
      : '',
    '<button type="button" class="tool" id="wrap-toggle" aria-pressed="false" hidden>Wrap lines</button>',
    page.truncated
      ? `<a class="tool" id="show-all" href="${escapeHtml(rawUrl)}">Show all (${escapeHtml(formatBytes(size))})</a>`
      : '',
  ].join('');
  const note = page.truncated
    ? `<p class="note" id="truncated-note">Showing the first ${formatBytes(PREVIEW_TEXT_BYTES)}.</p>`
    : '';
  const loading = page.fetchText
    ? '<p class="note" id="text-status" role="status">Loading…</p>'
    : '';
  const rendered =
    preview.kind === 'markdown' ? '<div class="markdown" id="rendered" hidden></div>' : '';
  const text = page.text === null ? '' : escapeText(page.text);
  return `<div class="toolbar">${tools}</div>${note}${loading}${rendered}<pre class="text" id="text" tabindex="0"${language}${page.fetchText ? ' data-fetch="true"' : ''}><code>${text}</code></pre>`;
}

function previewBlock(input: PreviewPageInput): string {
  const { page, rawUrl } = input;
  const raw = escapeHtml(rawUrl);
  const name = escapeHtml(page.row.original_filename);
  switch (page.preview.kind) {
    case 'image':
      return `<a class="image" href="${raw}" title="Open at full size"><img src="${raw}" alt="${name}"></a>`;
    case 'video':
      return `<video class="media" controls playsinline preload="metadata" src="${raw}"></video>`;
    case 'audio':
      return `<audio class="media audio" controls preload="metadata" src="${raw}"></audio>`;
    case 'pdf':
      // No sandbox attribute: Chromium shows no PDF in a sandboxed frame, whatever it allows.
      // The PDF's own answer is sandboxed (CSP sandbox) and may be framed by this origin only.
      return `<iframe class="pdf" src="${escapeHtml(input.frameUrl)}" title="${name}" referrerpolicy="no-referrer"></iframe>`;
    case 'text':
    case 'markdown':
      return textBlock(page, rawUrl, Number(page.row.size));
    case 'other':
      return `<div class="other">${FILE_ICON}<p>${escapeHtml(typeLabel(page.row.mime_type, page.row.original_filename))}</p><p class="note">No preview for this type: download it to open it.</p></div>`;
  }
}

export function previewPageHtml(input: PreviewPageInput): string {
  const { page, assets } = input;
  const { row } = page;
  const size = formatBytes(Number(row.size));
  const styles = assets.styles
    .map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`)
    .join('\n');
  const nonce = escapeHtml(input.nonce);
  // The meta is where Vite's loader of the chunks reads the nonce for the preloads it adds.
  const script = assets.script
    ? `<meta property="csp-nonce" nonce="${nonce}">\n<script type="module" nonce="${nonce}" src="${escapeHtml(assets.script)}"></script>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<meta name="robots" content="noindex">
<title>${escapeHtml(input.title)}</title>
${input.tags}
${styles}
${script}
</head>
<body>
<main class="page" data-kind="${page.preview.kind}" data-raw="${escapeHtml(input.rawUrl)}">
<header class="head">
<div class="about">
<h1 class="name">${escapeHtml(row.original_filename)}</h1>
<p class="meta"><span>${escapeHtml(size)}</span> · <time datetime="${escapeHtml(row.created_at)}">${escapeHtml(formatUtcDateTime(row.created_at))}</time></p>
</div>
<a class="download" href="${escapeHtml(input.downloadUrl)}" download>Download</a>
</header>
<div class="preview preview-${page.preview.kind}">
${previewBlock(input)}
</div>
</main>
</body>
</html>
`;
}
