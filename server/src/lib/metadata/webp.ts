/**
 * WebP: a RIFF file whose size is in its first bytes and whose EXIF and XMP chunks come after
 * the image data. Leaving them out would change that size, which a stream has sent long before
 * it reaches them; so they are overwritten in place instead, keeping every size and flag true:
 * the EXIF chunk then holds Orientation alone (or no tag) and zeros, the XMP chunk spaces (an
 * empty XMP packet). ICCP (the colour profile) and the image chunks are kept as they are.
 */
import { EXIF_HEADER, EXIF_VIEW, orientationOf, orientationTiff } from './exif.ts';
import type { Parser, Step } from './rewriter.ts';

export function isWebp(head: Buffer): boolean {
  return head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP';
}

/** An Exif payload of `size` bytes: the same prefix, a TIFF with Orientation alone, zeros. */
function blankExif(payload: Buffer, size: number): Buffer {
  const prefixed = payload.subarray(0, EXIF_HEADER.length).equals(EXIF_HEADER);
  const tiffAt = prefixed ? EXIF_HEADER.length : 0;
  const orientation = orientationOf(payload.subarray(tiffAt));
  const out = Buffer.alloc(size);
  if (prefixed) EXIF_HEADER.copy(out);
  const tiff = orientationTiff(orientation);
  // With Orientation 1, an IFD0 of no entries: the header, a count of 0, no next IFD.
  const kept = orientation === 1 ? Buffer.concat([tiff.subarray(0, 8), Buffer.alloc(6)]) : tiff;
  if (tiffAt + kept.length <= size) kept.copy(out, tiffAt);
  return out;
}

export function webpParser(): Parser {
  let started = false;
  let end = 0;
  // Steps decided already, for the bytes after the one being taken.
  const queue: Step[] = [];
  const later = (step: Step, n: number) => {
    if (n > 0) queue.push(step);
  };
  return (view, position) => {
    const next = queue.shift();
    if (next) return next;
    if (!started) {
      if (view.length < 12) return { need: 12 };
      started = true;
      end = 8 + view.readUInt32LE(4);
      return { keep: 12 };
    }
    if (position >= end) return { rest: true };
    if (view.length < 8) return { need: 8 };
    const fourcc = view.toString('latin1', 0, 4);
    const size = view.readUInt32LE(4);
    const pad = size & 1;
    if (fourcc === 'XMP ') {
      later({ fill: size, byte: 0x20 }, size);
      later({ keep: pad }, pad);
      return { keep: 8 };
    }
    if (fourcc !== 'EXIF') return { keep: 8 + size + pad };
    const seen = Math.min(size, EXIF_VIEW);
    if (view.length < 8 + seen) return { need: 8 + seen };
    const blank = blankExif(view.subarray(8, 8 + seen), seen);
    later({ fill: size - seen, byte: 0 }, size - seen);
    later({ keep: pad }, pad);
    return { put: Buffer.concat([view.subarray(0, 8), blank]), skip: 8 + seen };
  };
}
