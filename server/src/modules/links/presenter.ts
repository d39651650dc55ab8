/** The headers of a link's answer, and the cookies it sets. */
import { stringifySetCookie } from 'cookie';
import {
  contentDispositionHeader,
  contentTypeHeader,
  FILE_CSP,
  fileCsp,
  FRAMED_BY_SELF,
  PAGE_CSP,
} from './content-policy.ts';
import type { FileMeta } from './service.ts';
import type { LinkCookie } from './urls.ts';

/**
 * On every file and thumbnail: no sniffing, a sandbox, embeddable anywhere, and caching by
 * what the link is. A public file open to all, with no expiry, may be kept by browsers and
 * CDNs for publicMaxAgeSeconds (PUBLIC_MAX_AGE_SECONDS): the bound on how long a deleted or
 * privatised public file may still be seen outside Upshot. Any other (private, behind a
 * password or a view limit, or expiring) is kept by no shared cache and checked with Upshot on
 * every use.
 */
export function baseHeaders(cacheable: boolean, publicMaxAgeSeconds: number, csp = FILE_CSP) {
  return {
    'x-content-type-options': 'nosniff',
    'content-security-policy': csp,
    'cross-origin-resource-policy': 'cross-origin',
    'referrer-policy': 'no-referrer',
    'cache-control': cacheable ? `public, max-age=${publicMaxAgeSeconds}` : 'private, no-cache',
  };
}

/** On a page a link answers instead of its file (a password form, a gone link). */
export const PAGE_HEADERS = Object.freeze({
  'content-type': 'text/html; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'content-security-policy': PAGE_CSP,
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex',
});

/**
 * A Set-Cookie header: HttpOnly (no script reads it), SameSite=Lax (a cross-site page cannot
 * send it with its own requests), sent back only to the link's own path (the address the
 * visitor opened: the app's pages and other links never carry it), Secure when links are served
 * over HTTPS.
 */
export function setCookieHeader(cookie: LinkCookie, options: { secure: boolean; path: string }) {
  return stringifySetCookie({
    name: cookie.name,
    value: cookie.value,
    httpOnly: true,
    sameSite: 'lax',
    path: options.path,
    maxAge: cookie.maxAgeSeconds,
    secure: options.secure,
  });
}

export function fileHeaders(meta: FileMeta, publicMaxAgeSeconds: number) {
  const csp = fileCsp(meta.mimeType) + (meta.framed ? FRAMED_BY_SELF : '');
  return {
    ...baseHeaders(meta.cacheable, publicMaxAgeSeconds, csp),
    // A PDF's framed copy is inline in a frame and an attachment elsewhere: the browser's cache
    // keeps the two apart (no shared cache keeps either: it is private).
    ...(meta.frameCopy ? { vary: 'Sec-Fetch-Dest' } : {}),
    etag: meta.etag,
    'last-modified': meta.lastModified.toUTCString(),
    'accept-ranges': 'bytes',
    'content-type': contentTypeHeader(meta.mimeType),
    'content-disposition': contentDispositionHeader(meta.filename, meta.inline),
  };
}

/** How many uploads' headers are kept; past it the memory starts again. */
const KEPT_HEADERS = 10_000;

/**
 * fileHeaders, made once per upload: keyed by everything they are made from (an upload's id,
 * name and type never change; its privacy and link controls may), so a kept entry is never stale.
 */
export function keptFileHeaders(publicMaxAgeSeconds: number) {
  const kept = new Map<string, Readonly<Record<string, string>>>();
  return (meta: FileMeta) => {
    const how = `${meta.cacheable ? '+' : '-'}${meta.inline ? 'i' : 'a'}${meta.framed ? 'f' : ''}${meta.frameCopy ? 'c' : ''}`;
    const key = `${meta.etag}${how}${meta.mimeType}/${meta.filename}`;
    let headers = kept.get(key);
    if (!headers) {
      if (kept.size >= KEPT_HEADERS) kept.clear();
      headers = Object.freeze(fileHeaders(meta, publicMaxAgeSeconds));
      kept.set(key, headers);
    }
    return headers;
  };
}
