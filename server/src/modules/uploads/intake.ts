/**
 * What an upload's bytes go through on their way to the store: a claimed picture, video or
 * sound has its first kilobyte sniffed (lib/sniff.ts), and a picture loses its metadata unless
 * its owner keeps it (lib/metadata). The stored size, digest and charge are then those of what
 * is stored.
 */
import { pipeline, type Transform } from 'node:stream';
import { newStorageId } from '../../lib/files.ts';
import { inlineHasher } from '../../lib/hashing.ts';
import { metadataStripper, stripsType } from '../../lib/metadata/index.ts';
import { headCapture, sniffsClaim, storedType } from '../../lib/sniff.ts';
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

/**
 * A stored picture's bytes without their metadata, copied to a new key and hashed as they are
 * written (a chunked upload's joined bytes, which cannot change in place); null when the type
 * is not a picture's.
 */
export async function stripStored(
  storage: Storage,
  storageKey: string,
  mimeType: string,
): Promise<{ storageKey: string; size: number; sha256: string } | null> {
  if (!stripsType(mimeType)) return null;
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
