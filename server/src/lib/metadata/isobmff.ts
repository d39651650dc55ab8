/**
 * AVIF and HEIC (HEIF, an ISO base media file): Exif and XMP are items whose bytes sit where the
 * item location box (iloc) of the top-level meta box says, usually in the mdat that follows.
 * Taking them out would move every other item's bytes and break their locations; so the meta
 * box is read whole (it is small) and those bytes are overwritten as they stream by: zeros for
 * Exif, spaces for XMP (an empty packet). Orientation lives in the irot and imir properties
 * there, not in Exif, and is untouched, as is the colour profile (colr). An item whose bytes
 * went by before the meta box (an mdat first) cannot be reached this way and is left as it is.
 */
import { MAX_VIEW, type Parser } from './rewriter.ts';

const BRANDS = new Set(['avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'mif1', 'msf1', 'mif2']);

/** Whether the file starts with an ftyp box naming an AVIF or HEIF brand. */
export function isHeif(head: Buffer): boolean {
  if (head.length < 16 || head.toString('latin1', 4, 8) !== 'ftyp') return false;
  const size = Math.min(head.readUInt32BE(0), head.length);
  for (let at = 8; at + 4 <= size; at += 4) {
    if (at === 12) continue; // the minor version
    if (BRANDS.has(head.toString('latin1', at, at + 4))) return true;
  }
  return false;
}

type Range = { start: number; end: number; byte: number };

/** A box at `at` in `data`: its type, where its content starts, where it ends. */
function boxAt(data: Buffer, at: number) {
  let size = data.readUInt32BE(at);
  const type = data.toString('latin1', at + 4, at + 8);
  let content = at + 8;
  if (size === 1) {
    size = Number(data.readBigUInt64BE(at + 8));
    content += 8;
  } else if (size === 0) size = data.length - at;
  if (size < content - at || at + size > data.length) throw new Error(`bad box ${type}`);
  return { type, content, end: at + size };
}

function children(data: Buffer, from: number, to: number) {
  const boxes = [];
  for (let at = from; at + 8 <= to;) {
    const box = boxAt(data, at);
    boxes.push(box);
    at = box.end;
  }
  return boxes;
}

/** Reads an unsigned integer of 0, 4 or 8 bytes. */
function uint(data: Buffer, at: number, size: number): number {
  if (size === 0) return 0;
  if (size === 4) return data.readUInt32BE(at);
  if (size === 8) return Number(data.readBigUInt64BE(at));
  throw new Error(`field of ${size} bytes`);
}

/** The ids of Exif and XMP items, from the item information box. */
function metadataItems(data: Buffer, iinf: { content: number; end: number }) {
  const items = new Map<number, number>(); // id -> fill byte
  const version = data[iinf.content]!;
  const first = iinf.content + 4 + (version === 0 ? 2 : 4);
  for (const infe of children(data, first, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const v = data[infe.content]!;
    let at = infe.content + 4;
    const id = v === 3 ? data.readUInt32BE(at) : data.readUInt16BE(at);
    at += v === 3 ? 4 : 2;
    at += 2; // protection index
    let itemType = 'mime';
    if (v >= 2) {
      itemType = data.toString('latin1', at, at + 4);
      at += 4;
    }
    const nameEnd = data.indexOf(0, at);
    const contentType =
      nameEnd >= 0 && nameEnd < infe.end
        ? data.toString('latin1', nameEnd + 1, Math.max(nameEnd + 1, data.indexOf(0, nameEnd + 1)))
        : '';
    if (itemType === 'Exif') items.set(id, 0);
    else if (itemType === 'mime' && contentType === 'application/rdf+xml') items.set(id, 0x20);
  }
  return items;
}

/** Where the Exif and XMP items' bytes are in the file, from the meta box at `base`. */
function metadataRanges(meta: Buffer, base: number): Range[] {
  const box = boxAt(meta, 0);
  const parts = children(meta, box.content + 4, box.end);
  const iinf = parts.find((b) => b.type === 'iinf');
  const iloc = parts.find((b) => b.type === 'iloc');
  const idat = parts.find((b) => b.type === 'idat');
  if (!iinf || !iloc) return [];
  const items = metadataItems(meta, iinf);
  if (items.size === 0) return [];

  const ranges: Range[] = [];
  const version = meta[iloc.content]!;
  let at = iloc.content + 4;
  const offsetSize = meta[at]! >> 4;
  const lengthSize = meta[at]! & 15;
  const baseOffsetSize = meta[at + 1]! >> 4;
  const indexSize = version >= 1 ? meta[at + 1]! & 15 : 0;
  at += 2;
  const count = version < 2 ? meta.readUInt16BE(at) : meta.readUInt32BE(at);
  at += version < 2 ? 2 : 4;
  for (let i = 0; i < count; i++) {
    const id = version < 2 ? meta.readUInt16BE(at) : meta.readUInt32BE(at);
    at += version < 2 ? 2 : 4;
    let method = 0;
    if (version >= 1) {
      method = meta.readUInt16BE(at) & 15;
      at += 2;
    }
    at += 2; // data reference index
    const baseOffset = uint(meta, at, baseOffsetSize);
    at += baseOffsetSize;
    const extents = meta.readUInt16BE(at);
    at += 2;
    for (let e = 0; e < extents; e++) {
      at += indexSize;
      const offset = uint(meta, at, offsetSize);
      at += offsetSize;
      const length = uint(meta, at, lengthSize);
      at += lengthSize;
      const byte = items.get(id);
      // Length 0 means "to the end": not a bounded stretch to overwrite.
      if (byte === undefined || length === 0) continue;
      if (method === 0)
        ranges.push({ start: baseOffset + offset, end: baseOffset + offset + length, byte });
      else if (method === 1 && idat) {
        const start = base + idat.content + baseOffset + offset;
        ranges.push({ start, end: start + length, byte });
      }
    }
  }
  return ranges.sort((a, b) => a.start - b.start);
}

export function heifParser(): Parser {
  let ranges: Range[] | null = null;
  let passed = 0; // ranges[0 .. passed) are behind
  return (view, position) => {
    if (ranges) {
      // Past the meta box: keep up to each stretch, overwrite it, and so on.
      while (passed < ranges.length && ranges[passed]!.end <= position) passed++;
      const next = ranges[passed];
      if (!next) return { rest: true };
      if (next.start > position) return { keep: next.start - position };
      return { fill: next.end - position, byte: next.byte };
    }
    if (view.length < 16) return { need: 16 };
    const size32 = view.readUInt32BE(0);
    const type = view.toString('latin1', 4, 8);
    const size = size32 === 1 ? Number(view.readBigUInt64BE(8)) : size32;
    if (size === 0 || size < 8) return { rest: true }; // to the end of the file, or broken
    if (type !== 'meta') return { keep: size };
    if (size > MAX_VIEW) return { rest: true };
    if (view.length < size) return { need: size };
    const meta = Buffer.from(view.subarray(0, size));
    ranges = metadataRanges(meta, position);
    // Stretches inside the meta box itself (its idat) are overwritten here.
    for (const r of ranges) {
      const from = Math.max(r.start, position) - position;
      const to = Math.min(r.end, position + size) - position;
      if (from < to) meta.fill(r.byte, from, to);
    }
    return { put: meta, skip: size };
  };
}
