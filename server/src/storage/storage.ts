/**
 * The byte store behind uploads. Keys are made by the server (ids), never from user input.
 * The multipart calls map one to one onto S3 multipart uploads: parts are numbered, may
 * arrive in any order, may be sent again, and become an object only on completion.
 */
import type { Readable } from 'node:stream';

/** Inclusive byte range, as in HTTP Range. */
export type ByteRange = { start: number; end: number };

/** A part of a multipart upload as it was stored: its index, its size and its ETag. */
export type StoredPart = { index: number; size: number; etag: string };

export interface Storage {
  /** Streams body into a new object, committed atomically: all the bytes or nothing. */
  put(key: string, body: Readable, options?: { maxBytes?: number }): Promise<{ size: number }>;
  /** Streams an object or a byte range of it. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * Reads a byte range whole into memory, for small bodies only (the server reads files up to
   * 128 KiB this way). The result is shorter than the range when the object is.
   */
  read(key: string, range: ByteRange): Promise<Buffer>;
  /**
   * The store answers and is this server's: the files directory exists and can be written
   * (local disk), the bucket answers to these credentials (S3). Rejects with why, else nothing.
   */
  check(): Promise<void>;
  /** Size in bytes, or null when there is no such object. */
  size(key: string): Promise<number | null>;
  /** Removes an object; a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Every object with its last change, for the sweep that reclaims unreferenced bytes. */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;

  createMultipart(key: string): Promise<string>;
  /**
   * Writes part `index` (0-based) of exactly `size` bytes at `offset`; replaces an earlier copy.
   * Answers this copy's ETag, which completeMultipart is given back so that no store is ever
   * asked which parts it holds (S3 stores without ListParts); a store that needs none (local
   * disk, which writes parts in place) answers ''.
   */
  putPart(
    multipartId: string,
    key: string,
    part: { index: number; offset: number; size: number },
    body: Readable,
  ): Promise<string>;
  /**
   * Joins `parts` (every part, with the ETag its last putPart answered) into the object at key;
   * their sizes must add up to totalSize. Repeatable: when an earlier call completed it already
   * (its answer was lost), it succeeds again.
   */
  completeMultipart(
    multipartId: string,
    key: string,
    parts: StoredPart[],
    totalSize: number,
  ): Promise<void>;
  /** Removes the parts; a multipart upload that is gone already is not an error. */
  abortMultipart(multipartId: string, key: string): Promise<void>;
  /**
   * Removes multipart uploads untouched since `before` whose id is not in `inUse` (left by a
   * crash between a session's bytes and its row); answers their ids. Object stores answer []
   * without listing anything: their incomplete multipart uploads are aborted by the bucket's
   * lifecycle rule (docs/DEPLOYMENT.md), as not every S3 store lists them.
   */
  removeAbandonedMultipart(before: Date, inUse: Set<string>): Promise<string[]>;

  /**
   * Removes temporary files of whole-object writes untouched since `before` (left by a crash
   * mid-write); returns their names. Object stores have none: a whole-object write cut off
   * there leaves an incomplete multipart upload (see removeAbandonedMultipart).
   */
  removeTemporary(before: Date): Promise<string[]>;
  /** A filesystem path for tools that need one (ffmpeg); null when objects are not local files. */
  localPath(key: string): string | null;
  /**
   * A URL anyone holding it may GET the object from, straight from the store, until it expires;
   * the store answers with the given Content-Type and Content-Disposition, and honours Range.
   * Null when the store cannot hand out such URLs (local disk: the server sends the bytes).
   */
  presignedGet(key: string, options: PresignOptions): Promise<string | null>;
}

export type PresignOptions = {
  expiresInSeconds: number;
  contentType: string;
  contentDisposition: string;
  /** When the URL's lifetime starts; now unless given (a past time makes an expired URL). */
  signedAt?: Date;
};

/** Thrown by a driver when a body is larger than allowed, or a part is not its announced size. */
export class StorageSizeError extends Error {
  constructor(
    message: string,
    readonly kind: 'too_large' | 'wrong_size',
  ) {
    super(message);
  }
}

/** Object keys: `u/ab/cd/<id>` for files, `t/ab/cd/<id>` for thumbnails. */
export function objectKey(kind: 'u' | 't', id: string): string {
  return `${kind}/${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
}

const KEY_PATTERN = /^[a-z]\/[a-z0-9]{2}\/[a-z0-9]{2}\/[a-z0-9]+$/;
export function assertValidKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new Error(`invalid storage key: ${key}`);
}
