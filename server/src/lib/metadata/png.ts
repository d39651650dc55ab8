/**
 * PNG: chunk by chunk to IEND. eXIf (Exif) and the text chunks tEXt, iTXt and zTXt (where XMP,
 * IPTC and "Raw profile" blocks live) are left out; an Orientation other than 1 comes back as an
 * eXIf chunk holding it alone, where the old one was. iCCP (the colour profile) and every other
 * chunk are kept; whatever follows IEND goes through as it is.
 */
import zlib from 'node:zlib';
import { EXIF_VIEW, orientationOf, orientationTiff } from './exif.ts';
import type { Parser } from './rewriter.ts';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DROPPED = new Set(['eXIf', 'tEXt', 'iTXt', 'zTXt']);

export function isPng(head: Buffer): boolean {
  return head.length >= 8 && head.subarray(0, 8).equals(SIGNATURE);
}

/** A PNG chunk: length, type, data and its CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

export function pngParser(): Parser {
  let started = false;
  let dropping = 0;
  return (view) => {
    if (!started) {
      started = true;
      return { keep: 8 };
    }
    if (dropping > 0) {
      const n = dropping;
      dropping = 0;
      return { drop: n };
    }
    if (view.length < 8) return { need: 8 };
    const length = view.readUInt32BE(0);
    if (length > 0x7fffffff) return { rest: true };
    const type = view.toString('latin1', 4, 8);
    const total = 12 + length;
    if (type === 'IEND') return { rest: true };
    if (!DROPPED.has(type)) return { keep: total };
    if (type !== 'eXIf') return { drop: total };
    const seen = Math.min(total, 8 + EXIF_VIEW);
    if (view.length < seen) return { need: seen };
    const orientation = orientationOf(view.subarray(8, seen));
    dropping = total - seen;
    return {
      put: orientation === 1 ? Buffer.alloc(0) : pngChunk('eXIf', orientationTiff(orientation)),
      skip: seen,
    };
  };
}
