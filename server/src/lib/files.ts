/** Helpers every domain that takes in files shares: server-made ids, clean names, honest types. */
import crypto from 'node:crypto';
import mime from 'mime-types';
import { isMimeType } from '@upshot/contract';

/** A storage id: random, server-made, never derived from a filename. */
export function newStorageId(): string {
  return crypto.randomBytes(16).toString('hex');
}

/**
 * The type to store for a file: the client's when it is one valid `type/subtype` and not the
 * generic octet-stream, else one guessed from the extension, else application/octet-stream.
 */
export function resolveMimeType(filename: string, given: string | undefined): string {
  const clean = (given ?? '').trim().toLowerCase();
  if (isMimeType(clean) && clean !== 'application/octet-stream') return clean;
  return mime.lookup(filename) || 'application/octet-stream';
}
