/**
 * The one Exif tag kept: Orientation. Read from a TIFF-structured Exif block, and written back
 * as the smallest such block that holds it alone (IFD0 with one entry, no pointers), so a
 * picture taken sideways is still shown upright.
 */

const ORIENTATION_TAG = 0x0112;
const SHORT = 3;

/** The Orientation (2 to 8) in a TIFF block, or 1 when it has none or cannot be read. */
export function orientationOf(tiff: Buffer): number {
  try {
    const order = tiff.toString('latin1', 0, 2);
    if (order !== 'II' && order !== 'MM') return 1;
    const le = order === 'II';
    const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
    const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
    if (u16(2) !== 42) return 1;
    const ifd = u32(4);
    const count = u16(ifd);
    for (let i = 0; i < count; i++) {
      const entry = ifd + 2 + i * 12;
      if (u16(entry) !== ORIENTATION_TAG) continue;
      if (u16(entry + 2) !== SHORT) return 1;
      const value = u16(entry + 8);
      return value >= 2 && value <= 8 ? value : 1;
    }
  } catch {
    // Out of range: a block cut short or made up.
  }
  return 1;
}

/** A TIFF block whose IFD0 holds Orientation alone (26 bytes, big-endian). */
export function orientationTiff(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(ORIENTATION_TAG, 10);
  tiff.writeUInt16BE(SHORT, 12);
  tiff.writeUInt32BE(1, 14); // one value, held in the entry
  tiff.writeUInt16BE(orientation, 18);
  // bytes 22-25: no next IFD
  return tiff;
}

/** Enough of an Exif block to find its orientation (IFD0 comes first in practice). */
export const EXIF_VIEW = 64 * 1024;

/** "Exif\0\0": what starts an Exif block in JPEG (and in some WebP files). */
export const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');
