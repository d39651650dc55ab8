/** The headers of a link's answer. */
import contentDisposition from 'content-disposition';
import { contentTypeHeader, FILE_CSP } from './content-policy.ts';
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

export function fileHeaders(meta: FileMeta): Record<string, string> {
  return {
    ...baseHeaders(meta.isPublic),
    etag: meta.etag,
    'last-modified': meta.lastModified.toUTCString(),
    'accept-ranges': 'bytes',
    'content-type': contentTypeHeader(meta.mimeType),
    'content-disposition': contentDisposition(meta.filename, {
      type: meta.inline ? 'inline' : 'attachment',
      // An ASCII filename= for old clients, and filename*= (RFC 5987) whenever that loses anything.
      fallback: meta.filename.replace(/[^\x20-\x7e]/g, '_'),
    }),
  };
}
