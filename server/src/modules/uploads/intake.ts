/**
 * What an upload's bytes go through on their way to the store, as a simple upload streams by
 * (intake) or once a chunked upload's parts are joined (intakeStored): a claimed picture, video
 * or sound has its first kilobyte sniffed (lib/sniff.ts), and a picture loses its metadata
 * unless its owner keeps it (lib/metadata). The stored size, digest and charge are then those
 * of what is stored.
 */
import { pipeline, type Transform } from 'node:stream';
import { newStorageId } from '../../lib/files.ts';
import { inlineHasher } from '../../lib/hashing.ts';
import {
  metadataStripper,
  PROBE_HEAD_BYTES,
  strippingChanges,
  stripsType,
} from '../../lib/metadata/index.ts';
import { headCapture, SNIFF_BYTES, sniffsClaim, storedType } from '../../lib/sniff.ts';
import { objectKey, type Storage } from '../../storage/storage.ts';

/** The stages a simple upload streams through, and the type to store once it has. */
export function intake(input: {
  claimed: string;
  strip: boolean;
  /** Past this many bytes in, the upload fails with tooLarge() (stripped bytes count too). */
  maxInput: number;
  tooLarge: () => Error;
}): { stages: Transform[]; storedType: () => string } {
  const { claimed } = input;
  const head = sniffsClaim(claimed) ? headCapture() : null;
  const strip =
    input.strip && stripsType(claimed)
      ? metadataStripper({ maxInput: input.maxInput, tooLarge: input.tooLarge })
      : null;
  return {
    stages: [head?.stream, strip].filter((s) => s !== null && s !== undefined),
    storedType: () => (head ? storedType(claimed, head.head()) : claimed),
  };
}

/** Bytes [start, end] of a stored object, or fewer when it is shorter (at most 1 MiB here). */
async function readRange(storage: Storage, key: string, start: number, end: number) {
  const parts: Buffer[] = [];
  for await (const part of await storage.get(key, { start, end })) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** A stored copy without metadata: where it is, its size and its digest. */
export type StrippedCopy = { storageKey: string; size: number; sha256: string };

/**
 * A chunked upload's joined bytes, taken in as a simple upload's stream is: the type to store,
 * and a copy without metadata at a new key when its owner strips it and stripping would change
 * something (the joined object cannot change in place). On S3 a copy is a download and an
 * upload inside the completion request: so one ranged read of the first bytes serves both the
 * sniff and a dry run of the stripper (lib/metadata/probe.ts), and a file with nothing to
 * strip (a GIF, a JPEG without metadata) is not copied.
 */
export async function intakeStored(
  storage: Storage,
  storageKey: string,
  input: { claimed: string; size: number; strip: boolean },
): Promise<{ mimeType: string; stripped: StrippedCopy | null }> {
  const { claimed, size } = input;
  if (!sniffsClaim(claimed)) return { mimeType: claimed, stripped: null };
  const strips = input.strip && stripsType(claimed);
  const read = async (start: number, end: number) => {
    const last = Math.min(end, size - 1);
    return start > last ? Buffer.alloc(0) : readRange(storage, storageKey, start, last);
  };
  const head = await read(0, (strips ? PROBE_HEAD_BYTES : SNIFF_BYTES) - 1);
  const mimeType = storedType(claimed, head);
  if (!strips || !stripsType(mimeType) || !(await strippingChanges({ head, size, read }))) {
    return { mimeType, stripped: null };
  }
  return { mimeType, stripped: await stripStored(storage, storageKey) };
}

/** A stored file's bytes through the stripper, to a new key, hashed as they are written. */
async function stripStored(storage: Storage, storageKey: string): Promise<StrippedCopy> {
  const copyKey = objectKey('u', newStorageId());
  const hashing = inlineHasher(Infinity);
  const source = await storage.get(storageKey);
  pipeline([source, metadataStripper(), hashing.stream], () => {});
  try {
    const { size } = await storage.put(copyKey, hashing.stream);
    return { storageKey: copyKey, size, sha256: hashing.digest()! };
  } catch (err) {
    source.destroy();
    await storage.delete(copyKey).catch(() => undefined);
    throw err;
  }
}
