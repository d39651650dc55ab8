/** The headers of a link's answer. */
import { contentDispositionHeader, contentTypeHeader, FILE_CSP } from './content-policy.ts';
import type { FileMeta } from './service.ts';

/** On every file and thumbnail: no sniffing, a sandbox, caching by privacy, embeddable anywhere. */
export function baseHeaders(isPublic: boolean): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'content-security-policy': FILE_CSP,
    'cross-origin-resource-policy': 'cross-origin',
    'referrer-policy': 'no-referrer',
    'cache-control': isPublic ? 'public, max-age=3600' : 'private, no-cache',
  };
}

function makeFileHeaders(meta: FileMeta): Record<string, string> {
  return {
    ...baseHeaders(meta.isPublic),
    etag: meta.etag,
    'last-modified': meta.lastModified.toUTCString(),
    'accept-ranges': 'bytes',
    'content-type': contentTypeHeader(meta.mimeType),
    'content-disposition': contentDispositionHeader(meta.filename, meta.inline),
  };
}

/** Header sets by the metadata they were made from (the service reuses unchanged metadata). */
const made = new WeakMap<FileMeta, Readonly<Record<string, string>>>();

/** The headers of a file's answer: made once per metadata object, not per request. */
export function fileHeaders(meta: FileMeta): Readonly<Record<string, string>> {
  let headers = made.get(meta);
  if (!headers) {
    headers = Object.freeze(makeFileHeaders(meta));
    made.set(meta, headers);
  }
  return headers;
}
