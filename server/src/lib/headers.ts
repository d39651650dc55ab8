/** Reading request headers. */

/** A header's one value (a repeated header, which Node gives as a list, counts as none). */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * A header's value as the UTF-8 its client sent (Node reads header bytes as Latin-1), so a
 * password in any script arrives as typed; a value that is not UTF-8 stays as read.
 */
export function utf8HeaderValue(value: string | string[] | undefined): string | undefined {
  const raw = headerValue(value);
  if (raw === undefined) return undefined;
  const decoded = Buffer.from(raw, 'latin1').toString('utf8');
  return decoded.includes('\ufffd') ? raw : decoded;
}
