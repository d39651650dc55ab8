/** The rules of uploads: storing bytes with quota, links, listing, vanity URLs, deletion. */
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import mime from 'mime-types';
import {
  fileTypeOf,
  isReservedPath,
  MAX_SIMPLE_UPLOAD_BYTES,
  SHORT_CODE_ALPHABET,
  SHORT_CODE_LENGTH,
  VANITY_MAX,
  VANITY_MIN,
  VANITY_PATTERN,
  type Sort,
} from '@upshot/contract';
import { isUniqueViolation } from '../../db/database.ts';
import type { UploadRow, UserRow } from '../../db/schema.ts';
import {
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FileHasher } from '../../lib/file-hasher.ts';
import { hashStream, INLINE_HASH_LIMIT, inlineHasher } from '../../lib/hashing.ts';
import { formatBytes } from '../../lib/format.ts';
import { objectKey, StorageSizeError, type Storage } from '../../storage/storage.ts';
import { canManageUpload } from './policy.ts';
import type { UploadsRepository } from './repository.ts';

type Owner = Pick<UserRow, 'id' | 'role'>;

export function newShortCode(): string {
  const bytes = crypto.randomBytes(SHORT_CODE_LENGTH);
  let code = '';
  // 256 % 31 bias is negligible for link codes; uniqueness is enforced by the database.
  for (const b of bytes) code += SHORT_CODE_ALPHABET[b % SHORT_CODE_ALPHABET.length];
  return code;
}

/** A storage id: random, server-made, never derived from a filename. */
export function newStorageId(): string {
  return crypto.randomBytes(16).toString('hex');
}

/** Keeps the last path segment, drops control characters, caps the length. */
export function cleanFilename(name: string): string {
  // eslint-disable-next-line no-control-regex
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (base || 'file').slice(0, 255);
}

/** The client's type, or one guessed from the extension when it is blank or generic. */
export function resolveMimeType(filename: string, given: string | undefined): string {
  const clean = (given ?? '').trim().toLowerCase();
  if (clean && clean !== 'application/octet-stream') return clean.slice(0, 255);
  return mime.lookup(filename) || 'application/octet-stream';
}

function quotaMessage(remaining: number): string {
  return `Storage quota exceeded: ${formatBytes(remaining)} left`;
}

export type UploadsService = ReturnType<typeof createUploadsService>;

export function createUploadsService(deps: {
  uploads: UploadsRepository;
  storage: Storage;
  clock: Clock;
  fileHasher: FileHasher;
}) {
  const { uploads, storage, clock } = deps;

  /** Hashes a stored upload's bytes (on the hasher's thread when it is a local file). */
  async function hashStored(row: Pick<UploadRow, 'id' | 'storage_key'>): Promise<string> {
    const file = storage.localPath(row.storage_key);
    const hex = file
      ? await deps.fileHasher.sha256(file)
      : await hashStream(await storage.get(row.storage_key));
    await uploads.setSha256(row.id, hex);
    return hex;
  }

  /** Inserts the row for bytes already committed at storageKey; retries short-code collisions. */
  async function record(input: {
    owner: Owner;
    filename: string;
    mimeType: string;
    size: number;
    /** null: computed after the fact (chunked uploads), see hashStored. */
    sha256: string | null;
    isPublic: boolean;
    storageKey: string;
  }): Promise<UploadRow> {
    for (let attempt = 0; attempt < 5; attempt++) {
      let result: UploadRow | 'quota';
      try {
        result = await uploads.insertCharged({
          id: crypto.randomUUID(),
          user_id: input.owner.id,
          original_filename: input.filename,
          mime_type: input.mimeType,
          file_type: fileTypeOf(input.mimeType) ?? 'other',
          size: input.size,
          sha256: input.sha256,
          short_code: newShortCode(),
          vanity_url: null,
          is_public: input.isPublic ? 1 : 0,
          storage_key: input.storageKey,
          thumbnail_key: null,
          created_at: clock.now().toISOString(),
        });
      } catch (err) {
        if (isUniqueViolation(err)) continue; // short-code collision: draw another
        await storage.delete(input.storageKey);
        throw err;
      }
      if (result === 'quota') {
        await storage.delete(input.storageKey);
        throw new PayloadTooLargeError(quotaMessage(await uploads.remainingQuota(input.owner.id)));
      }
      return result;
    }
    await storage.delete(input.storageKey);
    throw new Error('could not find a free short code');
  }

  return {
    record,
    hashStored,

    /** Fills in digests that a crash left missing; returns how many. */
    async hashMissing(): Promise<number> {
      const rows = await uploads.missingSha256(50);
      for (const row of rows) await hashStored(row);
      return rows.length;
    },

    /** Streams one file (the simple upload) into storage, hashing as it goes, then records it. */
    async storeStream(input: {
      owner: Owner;
      filename: string;
      mimeType: string | undefined;
      body: Readable;
      isPublic: boolean;
      /** The request's Content-Length, when known: past the inline limit, hash later only. */
      requestBytes?: number;
    }): Promise<UploadRow> {
      const remaining = await uploads.remainingQuota(input.owner.id);
      const ceiling = Math.min(MAX_SIMPLE_UPLOAD_BYTES, remaining);
      // A file that will be hashed after the response anyway skips the inline hasher. The
      // request also carries the multipart envelope and fields, allowed for generously.
      const surelyLarge =
        input.requestBytes !== undefined && input.requestBytes > INLINE_HASH_LIMIT + 64 * 1024;
      const hashing = surelyLarge ? null : inlineHasher();
      if (hashing) {
        input.body.on('error', (err) => hashing.stream.destroy(err));
        input.body.pipe(hashing.stream);
      }
      const storageKey = objectKey('u', newStorageId());
      let size: number;
      try {
        ({ size } = await storage.put(storageKey, hashing?.stream ?? input.body, {
          maxBytes: ceiling,
        }));
      } catch (err) {
        input.body.resume(); // drain what is left of the request
        if (err instanceof StorageSizeError) {
          throw new PayloadTooLargeError(
            remaining < MAX_SIMPLE_UPLOAD_BYTES ? quotaMessage(remaining) : simpleLimitMessage(),
          );
        }
        throw err;
      }
      const filename = cleanFilename(input.filename);
      const sha256 = hashing?.digest() ?? null;
      const row = await record({
        owner: input.owner,
        filename,
        mimeType: resolveMimeType(filename, input.mimeType),
        size,
        sha256,
        isPublic: input.isPublic,
        storageKey,
      });
      // Large files are hashed after the response; the hashMissing job covers a crash.
      if (sha256 === null) hashStored(row).catch(() => {});
      return row;
    },

    async get(viewer: Owner, id: string): Promise<UploadRow> {
      const row = await uploads.findById(id);
      if (!row || !canManageUpload(viewer, row)) throw new NotFoundError('Upload not found');
      return row;
    },

    list(
      owner: Owner,
      query: { search?: string; type?: string; sort: Sort; page: number; limit: number },
    ) {
      return uploads.list({
        userId: owner.id,
        search: query.search || undefined,
        fileType: query.type || undefined,
        sort: query.sort,
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
      });
    },

    async setVanity(viewer: Owner, id: string, raw: string | null): Promise<UploadRow> {
      const row = await uploads.findById(id);
      if (!row || !canManageUpload(viewer, row)) throw new NotFoundError('Upload not found');
      const vanity = raw === null ? '' : raw.trim();
      if (vanity === '') return uploads.setVanity(id, null);
      if (vanity.length < VANITY_MIN || vanity.length > VANITY_MAX) {
        throw new ValidationError(`Custom URL must be ${VANITY_MIN}-${VANITY_MAX} characters`);
      }
      if (!VANITY_PATTERN.test(vanity)) {
        throw new ValidationError(
          'Custom URL may contain only letters, numbers, hyphens and underscores',
        );
      }
      if (isReservedPath(vanity)) throw new ConflictError(`"${vanity}" is reserved`);
      if (await uploads.slugTaken(vanity, id)) {
        throw new ConflictError(`"${vanity}" is already taken`);
      }
      try {
        return await uploads.setVanity(id, vanity);
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(`"${vanity}" is already taken`);
        throw err;
      }
    },

    /** Deletes rows first (quota given back), then their bytes; the sweep catches a crash between. */
    async delete(viewer: Owner, ids: string[]): Promise<number> {
      const rows = await uploads.deleteMany(
        [...new Set(ids)],
        viewer.role === 'admin' ? null : viewer.id,
      );
      await Promise.all(
        rows.flatMap((r) => [
          storage.delete(r.storage_key),
          r.thumbnail_key ? storage.delete(r.thumbnail_key) : Promise.resolve(),
        ]),
      );
      return rows.length;
    },
  };
}

export function simpleLimitMessage(): string {
  return `File is larger than ${formatBytes(MAX_SIMPLE_UPLOAD_BYTES)}: use the chunked upload (POST /api/chunked-upload/init) for larger files`;
}
