/**
 * What a served file may do in the browser: inline only for types that cannot script, and a PDF
 * in its preview page's frame.
 */
import { isMimeType } from '@upshot/contract';
import contentDisposition from 'content-disposition';

/** Applied to every served file but video and audio: a sandbox with no script, no plugins, no fetches. */
export const FILE_CSP =
  "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'";

/**
 * Video and audio: the same, but the sandbox keeps the file's origin. Chromium plays a media
 * file opened by its link in a page of its own whose player fetches the file again (ranges, to
 * seek); from an opaque origin that fetch is refused as cross-origin, and nothing plays. No
 * script runs in that page (no allow-scripts), and nosniff keeps anything else from being shown
 * as media.
 */
export const MEDIA_CSP =
  "sandbox allow-same-origin; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'";

/** The content security policy of a served file of this type. */
export function fileCsp(mimeType: string): string {
  const mime = mimeType.toLowerCase();
  const media = isMimeType(mime) && (mime.startsWith('video/') || mime.startsWith('audio/'));
  return media ? MEDIA_CSP : FILE_CSP;
}

/**
 * Added to a PDF's policy at its frame URL (`?frame`) loaded into a frame: only this origin's
 * pages (its preview page) may frame it.
 */
export const FRAMED_BY_SELF = "; frame-ancestors 'self'";

/**
 * The preview page's (`/v/{slug}`): its own script and stylesheets only, no inline script or
 * style, no plugins, no <base>, never framed; images, media, frames and fetches from this
 * origin and the links' (CONTENT_URL's, else PUBLIC_URL's), where the raw link is. Images a
 * Markdown file names
 * elsewhere are not loaded: a file does not hand its visitors' addresses to other sites.
 *
 * Script runs by this answer's nonce, never by its origin: an uploaded .js file is served from
 * this origin too, and `<script src>` ignores Content-Disposition, so `'self'` would run any
 * upload that a sanitizer or highlighter bug let into the page. The page's module script
 * carries the nonce, and what it imports (its chunks, statically or by import()) inherits it.
 * No 'strict-dynamic': it would also trust any script element made by script, and the page
 * makes none.
 */
export function previewCsp(linkOrigin: string, nonce: string): string {
  const here = `'self' ${linkOrigin}`;
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'self'",
    `img-src ${here}`,
    `media-src ${here}`,
    `frame-src ${here}`,
    `connect-src ${here}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * On a page a link answers itself (its password form, a gone link): no script, no framing, its
 * own inline style, and its form may post only back to this origin.
 */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

// Not PDF: Chromium's viewer runs a PDF's own JavaScript whatever the sandbox says. It runs in
// the viewer's interpreter, with no window, document or fetch, so it reaches nothing of a page,
// but it can show alerts and prompts, and on a click open a link or send a form. A PDF is inline
// only in its preview page's frame (service.ts metaOf), an attachment everywhere else.
const INLINE_EXACT = new Set(['text/plain']);

export function isInlineSafe(mimeType: string): boolean {
  const mime = mimeType.toLowerCase();
  if (!isMimeType(mime)) return false;
  if (mime === 'image/svg+xml') return false;
  return (
    mime.startsWith('image/') ||
    mime.startsWith('video/') ||
    mime.startsWith('audio/') ||
    INLINE_EXACT.has(mime)
  );
}

/** The Content-Disposition header: inline only when the type is safe to show. */
export function contentDispositionHeader(filename: string, inline: boolean): string {
  return contentDisposition(filename, {
    type: inline ? 'inline' : 'attachment',
    // An ASCII filename= for old clients, and filename*= (RFC 5987) whenever that loses anything.
    fallback: filename.replace(/[^\x20-\x7e]/g, '_'),
  });
}

/** The Content-Type header: text types get a charset. */
/**
 * The types a browser runs as a script (WHATWG's JavaScript MIME types). An uploaded script is
 * served as text: `<script src>`, a worker or a service worker ignores Content-Disposition, and
 * with nosniff refuses any other type, so an upload never runs as a script of a page of this
 * origin (the app's own pages allow scripts from their origin).
 */
const SCRIPT_TYPE =
  /^(text|application)\/(x-)?(java|ecma)script$|^text\/(javascript1\.[0-5]|jscript|livescript)$/;

export function contentTypeHeader(mimeType: string): string {
  const mime = mimeType.toLowerCase();
  // Stored types are checked on the way in; this keeps an odd one from ever reaching a header.
  if (!isMimeType(mime)) return 'application/octet-stream';
  if (SCRIPT_TYPE.test(mime.split(';')[0]!.trim())) return 'text/plain; charset=utf-8';
  if (mime.startsWith('text/') && !mime.includes('charset')) return `${mime}; charset=utf-8`;
  return mime;
}
