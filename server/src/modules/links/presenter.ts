/** The headers of a link's answer. */
import { contentDispositionHeader, contentTypeHeader, FILE_CSP } from './content-policy.ts';
import type { FileMeta } from './service.ts';

/**
 * On every file and thumbnail: no sniffing, a sandbox, embeddable anywhere, and caching by
 * privacy. A public file may be kept by browsers and CDNs for publicMaxAgeSeconds
 * (PUBLIC_MAX_AGE_SECONDS): the bound on how long a deleted or privatised public file may still
 * be seen outside Upshot. A private one is checked with Upshot on every use.
 */
export function baseHeaders(isPublic: boolean, publicMaxAgeSeconds: number) {
  return {
    'x-content-type-options': 'nosniff',
    'content-security-policy': FILE_CSP,
    'cross-origin-resource-policy': 'cross-origin',
    'referrer-policy': 'no-referrer',
    'cache-control': isPublic ? `public, max-age=${publicMaxAgeSeconds}` : 'private, no-cache',
  };
}

export function fileHeaders(meta: FileMeta, publicMaxAgeSeconds: number) {
  return {
    ...baseHeaders(meta.isPublic, publicMaxAgeSeconds),
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
 * name and type never change; its privacy may), so a kept entry is never stale.
 */
export function keptFileHeaders(publicMaxAgeSeconds: number) {
  const kept = new Map<string, Readonly<Record<string, string>>>();
  return (meta: FileMeta) => {
    const key = `${meta.etag}${meta.isPublic ? '+' : '-'}${meta.mimeType}/${meta.filename}`;
    let headers = kept.get(key);
    if (!headers) {
      if (kept.size >= KEPT_HEADERS) kept.clear();
      headers = Object.freeze(fileHeaders(meta, publicMaxAgeSeconds));
      kept.set(key, headers);
    }
    return headers;
  };
}
