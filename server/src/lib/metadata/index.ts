/**
 * Strips a picture's private metadata as it streams (EXIF, XMP, IPTC: where and with what it
 * was taken, by which camera), keeping its colour profile and its orientation, without
 * touching a pixel. The container is known from the first bytes, whatever the file claims to
 * be: JPEG, PNG, WebP, AVIF or HEIC; any other file, and anything after the point where a file
 * stops making sense, goes through unchanged. docs/decisions/0021 says what is kept and why.
 */
import type { Transform } from 'node:stream';
import { isHeif, heifParser } from './isobmff.ts';
import { isJpeg, jpegParser } from './jpeg.ts';
import { isPng, pngParser } from './png.ts';
import { wouldChange, type ReadRange } from './probe.ts';
import { rewriter, type Parser } from './rewriter.ts';
import { isWebp, webpParser } from './webp.ts';

/** Enough of a file's start to tell its container. */
const SIGNATURE_BYTES = 32;

/** Image types whose metadata is stripped (as stored, after sniffing). */
export function stripsType(mimeType: string): boolean {
  return mimeType.startsWith('image/') && mimeType !== 'image/svg+xml';
}

function containerParser(): Parser {
  let parser: Parser | null = null;
  return (view, position) => {
    if (!parser) {
      if (view.length < SIGNATURE_BYTES) return { need: SIGNATURE_BYTES };
      if (isJpeg(view)) parser = jpegParser();
      else if (isPng(view)) parser = pngParser();
      else if (isWebp(view)) parser = webpParser();
      else if (isHeif(view)) parser = heifParser();
      else return { rest: true };
    }
    return parser(view, position);
  };
}

/**
 * A pass-through that leaves a picture's private metadata out. `maxInput` bounds the bytes it
 * takes in (what it leaves out does not count against the stored size): past it, the stream
 * fails with `tooLarge()`.
 */
export function metadataStripper(
  options: { maxInput?: number; tooLarge?: () => Error } = {},
): Transform {
  return rewriter(containerParser(), options);
}

export { PROBE_HEAD_BYTES, type ReadRange } from './probe.ts';

/**
 * Whether metadataStripper() would change a stored file of `size` bytes, from its first bytes
 * (`head`, up to PROBE_HEAD_BYTES) and a few ranged reads at most (probe.ts): a picture with
 * nothing to strip, or a file of another kind, need not be copied.
 */
export function strippingChanges(file: { head: Buffer; size: number; read: ReadRange }) {
  return wouldChange(containerParser(), file);
}
