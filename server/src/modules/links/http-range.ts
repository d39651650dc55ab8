/** HTTP single byte ranges (RFC 9110 section 14). */
import type { ByteRange } from '../../storage/storage.ts';

/**
 * 'none' when there is no usable Range header (serve everything; multiple ranges are
 * answered whole, as the RFC allows), 'unsatisfiable' for 416, or the inclusive range.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'none' | 'unsatisfiable' {
  if (!header) return 'none';
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return 'none';
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return 'none';
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
