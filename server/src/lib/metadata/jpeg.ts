/**
 * JPEG: the segments before the first scan are read one by one. Exif (APP1), XMP (APP1, main
 * and extended) and Photoshop's IPTC block (APP13) are left out; an Orientation other than 1
 * comes back as an Exif segment holding it alone, where the old one was. Everything else
 * (JFIF, the ICC profile in APP2, MPF, comments, tables, frames) is kept. From the first scan
 * on, the bytes go through unread: metadata sits in the header, and reading the compressed data
 * for markers would cost a pass over every byte.
 */
import { EXIF_HEADER, orientationOf, orientationTiff } from './exif.ts';
import type { Parser } from './rewriter.ts';

const XMP = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');
const XMP_EXTENSION = Buffer.from('http://ns.adobe.com/xmp/extension/\0', 'latin1');
const PHOTOSHOP = Buffer.from('Photoshop 3.0\0', 'latin1');
const APP1 = 0xe1;
const APP13 = 0xed;
const SOS = 0xda;
const EOI = 0xd9;

const startsWith = (data: Buffer, prefix: Buffer) =>
  data.length >= prefix.length && data.subarray(0, prefix.length).equals(prefix);

/** An APP1 segment holding Exif with this orientation alone. */
function orientationSegment(orientation: number): Buffer {
  const tiff = orientationTiff(orientation);
  const head = Buffer.from([0xff, APP1, 0, 0]);
  head.writeUInt16BE(2 + EXIF_HEADER.length + tiff.length, 2);
  return Buffer.concat([head, EXIF_HEADER, tiff]);
}

export function isJpeg(head: Buffer): boolean {
  return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
}

export function jpegParser(): Parser {
  let started = false;
  return (view) => {
    if (!started) {
      started = true;
      return { keep: 2 }; // SOI
    }
    if (view.length < 2) return { need: 2 };
    if (view[0] !== 0xff) return { rest: true };
    const marker = view[1]!;
    if (marker === 0xff) {
      // Fill bytes before a marker: the whole run in view in one step, but the last 0xFF.
      let end = 2;
      while (end < view.length && view[end] === 0xff) end++;
      return { keep: end - 1 };
    }
    // From the first scan on, nothing is read; TEM and the restart markers have no place
    // before it (a file that has them is not one to read further).
    if (marker === SOS || marker === EOI || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      return { rest: true };
    }
    if (view.length < 4) return { need: 4 };
    const total = 2 + view.readUInt16BE(2);
    if (total < 4) return { rest: true };
    if (marker !== APP1 && marker !== APP13) return { keep: total };
    if (view.length < total) return { need: total };
    const body = view.subarray(4, total);
    if (marker === APP13) return startsWith(body, PHOTOSHOP) ? { drop: total } : { keep: total };
    if (startsWith(body, XMP) || startsWith(body, XMP_EXTENSION)) return { drop: total };
    if (!startsWith(body, EXIF_HEADER)) return { keep: total };
    const orientation = orientationOf(body.subarray(EXIF_HEADER.length));
    return {
      put: orientation === 1 ? Buffer.alloc(0) : orientationSegment(orientation),
      skip: total,
    };
  };
}
