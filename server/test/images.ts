/**
 * Pictures that carry what a phone puts in them (GPS position, camera make and model, serial
 * number, XMP, IPTC), with a colour profile and Orientation 6, made with sharp and, where sharp
 * writes none, by hand; and the checks that a stored copy lost all that and kept the rest.
 */
import zlib from 'node:zlib';
import sharp from 'sharp';
import { expect } from 'vitest';
import { pngChunk } from '../src/lib/metadata/png.ts';

export type PhotoFormat = 'jpeg' | 'png' | 'webp' | 'avif';
export const EXTENSION: Record<PhotoFormat, string> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  avif: 'avif',
};

/** Strings planted in the metadata: none may be left in a stripped copy. */
export const SECRETS = {
  make: 'UpshotCam',
  model: 'Pocket 9',
  serial: 'SN-0042-7731',
  xmp: 'UpshotXmpAuthor',
  iptc: 'UpshotIptcCity',
};

const TAG = { orientation: 0x0112, make: 0x010f, exifIfd: 0x8769, gpsIfd: 0x8825 };

const XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>${SECRETS.xmp}</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>`;

/** IPTC-IIM: record 2, dataset 90 (city). */
function iptc(): Buffer {
  const city = Buffer.from(SECRETS.iptc, 'latin1');
  return Buffer.concat([Buffer.from([0x1c, 0x02, 90, 0, city.length]), city]);
}

/** A JPEG APP13 segment: Photoshop's image resource 0x0404 holding IPTC. */
function app13(): Buffer {
  const data = iptc();
  const resource = Buffer.concat([
    Buffer.from('8BIM', 'latin1'),
    Buffer.from([0x04, 0x04, 0, 0]), // id, empty name (padded)
    Buffer.from([0, 0, 0, data.length]),
    data,
    Buffer.alloc(data.length & 1),
  ]);
  const body = Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource]);
  const head = Buffer.from([0xff, 0xed, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/** A noisy picture (so it is well past the smallest charge) carrying all of SECRETS. */
export async function photoWithMetadata(format: PhotoFormat, width = 160): Promise<Buffer> {
  const base = sharp({
    create: {
      width,
      height: Math.round((width * 3) / 4),
      channels: 3,
      background: '#888',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: SECRETS.make, Model: SECRETS.model },
      IFD2: { BodySerialNumber: SECRETS.serial },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100' },
    })
    .withIccProfile('p3')
    .withXmp(XMP);
  const made = await (
    format === 'avif' ? base.avif({ lossless: true }) : base[format]()
  ).toBuffer();
  if (format === 'jpeg') return Buffer.concat([made.subarray(0, 2), app13(), made.subarray(2)]);
  if (format === 'png') {
    // IPTC as ImageMagick writes it into a PNG, before IEND.
    const hex = `\niptc\n${iptc().length}\n${iptc().toString('hex')}\n`;
    const ztxt = Buffer.concat([
      Buffer.from('Raw profile type iptc\0\0', 'latin1'),
      zlib.deflateSync(hex),
    ]);
    const text = pngChunk('tEXt', Buffer.from(`Comment\0${SECRETS.iptc}`, 'latin1'));
    const iend = made.length - 12;
    return Buffer.concat([
      made.subarray(0, iend),
      pngChunk('zTXt', ztxt),
      text,
      made.subarray(iend),
    ]);
  }
  return made;
}

/** The tags of IFD0 of an Exif block (with or without its "Exif\0\0"); [] when unreadable. */
export function ifd0Tags(exif: Buffer | undefined): number[] {
  if (!exif) return [];
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') return [];
  const le = order === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const ifd = le ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
  return Array.from({ length: u16(ifd) }, (_, i) => u16(ifd + 2 + i * 12));
}

/** The metadata the fixture carries, as sharp (libvips) reads it. */
export async function expectPlanted(photo: Buffer, format: PhotoFormat) {
  const meta = await sharp(photo).metadata();
  const tags = ifd0Tags(meta.exif);
  expect(tags).toEqual(expect.arrayContaining([TAG.make, TAG.exifIfd, TAG.gpsIfd]));
  // IPTC has no place of its own in WebP and HEIF files.
  const planted = Object.entries(SECRETS).filter(
    ([what]) => what !== 'iptc' || format === 'jpeg' || format === 'png',
  );
  for (const [, secret] of planted) expect(photo.includes(secret), secret).toBe(true);
  expect(meta.icc).toBeDefined();
  if (format !== 'avif') expect(meta.orientation).toBe(6);
}

/**
 * The served copy of `original` has lost its EXIF (but Orientation), XMP and IPTC, and kept
 * its colour profile, its orientation and every pixel.
 */
export async function expectStripped(served: Buffer, original: Buffer, format: PhotoFormat) {
  for (const secret of Object.values(SECRETS)) expect(served.includes(secret), secret).toBe(false);
  const [before, after] = await Promise.all([sharp(original).metadata(), sharp(served).metadata()]);
  const tags = ifd0Tags(after.exif);
  expect(tags.filter((t) => t !== TAG.orientation)).toEqual([]);
  expect(after.xmp === undefined || after.xmp.toString('latin1').trim() === '').toBe(true);
  expect(after.iptc).toBeUndefined();
  expect(after.icc?.equals(before.icc!)).toBe(true);
  expect(after.orientation).toBe(before.orientation);
  if (format !== 'avif') expect(tags).toEqual([TAG.orientation]);
  const [a, b] = await Promise.all([
    sharp(original).raw().toBuffer(),
    sharp(served).raw().toBuffer(),
  ]);
  expect(b.equals(a), 'the same pixels').toBe(true);
}

/**
 * A picture with `count` empty steps to walk before its metadata: private PNG chunks (12 bytes
 * each) after the IHDR, or 'free' boxes (8 bytes each) after an AVIF's ftyp (whose item offsets
 * then point short: the bytes matter here, not the picture).
 */
export async function manySteps(format: 'png' | 'avif', count: number): Promise<Buffer> {
  const photo = await photoWithMetadata(format);
  const at = format === 'png' ? 8 + 25 : photo.readUInt32BE(0);
  const step =
    format === 'png'
      ? pngChunk('prVt', Buffer.alloc(0))
      : Buffer.from('\x00\x00\x00\x08free', 'latin1');
  return Buffer.concat([
    photo.subarray(0, at),
    Buffer.concat(Array(count).fill(step)),
    photo.subarray(at),
  ]);
}
