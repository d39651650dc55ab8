/** The rules of uploads: storing bytes with quota, links, listing, vanity URLs, deletion. */
import crypto from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import {
  cleanDisplayName,
  fileTypeOf,
  MAX_SIMPLE_UPLOAD_BYTES,
  SHORT_CODE_ALPHABET,
  SHORT_CODE_LENGTH,
  type Sort,
} from '@upshot/contract';
import type { UploadRow } from '../../db/schema.ts';
import { NotFoundError, PayloadTooLargeError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FileHasher } from '../../lib/file-hasher.ts';
import { newStorageId, resolveMimeType } from '../../lib/files.ts';
import { formatBytes } from '../../lib/format.ts';
import { hashStream, INLINE_HASH_LIMIT, inlineHasher } from '../../lib/hashing.ts';
import { objectKey, StorageSizeError, type Storage } from '../../storage/storage.ts';
import type { Actor, Viewer } from '../../lib/caller.ts';
import type { AuditService } from '../audit/index.ts';
import type { LinkUrls } from '../links/index.ts';
import type { UploadDefaults } from '../preferences/index.ts';
import { intake } from './intake.ts';
import { createLinkChanges } from './link-changes.ts';
import {
  decideLink,
  linkColumns,
  type LinkAsk,
  type LinkColumns,
  type NewLink,
} from './link-settings.ts';
import { canManageUpload, ownerManagedBy } from './policy.ts';
import { hasThumbnail } from './presenter.ts';
import type { DeadLinkTimes } from './link-queries.ts';
import type { UploadsRepository } from './repository.ts';
import type { Thumbnailer } from './thumbnails.ts';

/** Background task kinds of this module. */
export const TASKS = { sha256: 'upload.sha256', thumbnail: 'upload.thumbnail' } as const;

export function newShortCode(): string {
  const bytes = crypto.randomBytes(SHORT_CODE_LENGTH);
  let code = '';
  // 256 % 31 bias is negligible for link codes; uniqueness is enforced by the database.
  for (const b of bytes) code += SHORT_CODE_ALPHABET[b % SHORT_CODE_ALPHABET.length];
  return code;
}

function quotaMessage(remaining: number): string {
  return `Storage quota exceeded: ${formatBytes(remaining)} left`;
}

export function simpleLimitMessage(): string {
  return `File is larger than ${formatBytes(MAX_SIMPLE_UPLOAD_BYTES)}: use the chunked upload for larger files`;
}

export type UploadsService = ReturnType<typeof createUploadsService>;

export function createUploadsService(deps: {
  uploads: UploadsRepository;
  storage: Storage;
  clock: Clock;
  fileHasher: FileHasher;
  urls: LinkUrls;
  thumbnails: Thumbnailer;
  /** Tells the background runner that tasks are waiting. */
  kickTasks: () => void;
  /**
   * What the user's uploads get for what they do not say, and whether their pictures lose
   * their metadata (their preferences).
   */
  uploadDefaults: (userId: string) => Promise<UploadDefaults>;
  /** How long a used-up link's last viewer may go on reading it: its upload stays until then. */
  viewGraceMs: number;
  /** Where an admin's signed link, vanity change or delete of another's upload is recorded. */
  audit: Pick<AuditService, 'onOtherUsersUploads'>;
  /** Where a failure that must not fail the request goes (bytes not removed yet). */
  onError: (err: unknown, context: Record<string, unknown>) => void;
}) {
  const { uploads, storage, clock, urls, thumbnails, audit } = deps;
  /** Hashes a stored upload's bytes (on the hasher's thread when it is a local file). */
  async function hashStored(id: string): Promise<void> {
    const row = await uploads.findById(id);
    if (!row || row.sha256 !== null) return; // deleted meanwhile, or done already
    const file = storage.localPath(row.storage_key);
    const hex = file
      ? await deps.fileHasher.sha256(file)
      : await hashStream(await storage.get(row.storage_key));
    await uploads.setSha256(row.id, hex);
  }

  async function makeThumbnail(id: string): Promise<void> {
    const row = await uploads.findById(id);
    if (row) await thumbnails.make(row);
  }

  /**
   * Inserts the row for bytes already committed at storageKey, charging the quota; retries
   * short-code collisions. With an `id` it is idempotent: when that upload exists already (a
   * completion repeated after a crash), it is answered as it is, and charged once.
   */
  async function record(input: {
    id?: string;
    owner: Viewer;
    filename: string;
    mimeType: string;
    size: number;
    /** null: computed after the response, by a background task. */
    sha256: string | null;
    link: LinkColumns;
    storageKey: string;
  }): Promise<{ row: UploadRow; created: boolean }> {
    const tasks: string[] = input.sha256 === null ? [TASKS.sha256] : [];
    const thumbnailStatus = thumbnails.initialStatus(input.mimeType);
    if (thumbnailStatus === 'pending') tasks.push(TASKS.thumbnail);
    const id = input.id ?? crypto.randomUUID();
    for (let attempt = 0; attempt < 8; attempt++) {
      let result;
      try {
        result = await uploads.insertCharged(
          {
            id,
            user_id: input.owner.id,
            original_filename: input.filename,
            mime_type: input.mimeType,
            file_type: fileTypeOf(input.mimeType) ?? 'other',
            size: input.size,
            sha256: input.sha256,
            short_code: newShortCode(),
            vanity_url: null,
            ...input.link,
            storage_key: input.storageKey,
            thumbnail_status: thumbnailStatus,
            thumbnail_key: null,
            created_at: clock.now().toISOString(),
          },
          tasks,
          { fromSession: input.id !== undefined },
        );
      } catch (err) {
        // A completion keeps its assembled bytes for a retry (its session still points at
        // them). A simple upload has nobody to retry it, but its bytes go only once its row is
        // known not to exist: the error may have come after the row committed (a connection
        // lost before the commit's answer). When the database cannot say, they stay, and the
        // orphan sweep removes them if no row points at them.
        if (input.id === undefined) {
          const absent = await uploads.findById(id).then(
            (row) => row === undefined,
            () => false,
          );
          if (absent) await storage.delete(input.storageKey).catch(() => undefined);
        }
        throw err;
      }
      if (result === 'code-taken') continue;
      if (result === 'quota') {
        await storage.delete(input.storageKey);
        const remaining = await uploads.remainingQuota(input.owner.id, input.id);
        throw new PayloadTooLargeError(quotaMessage(remaining));
      }
      if ('existing' in result) return { row: result.existing, created: false };
      if (tasks.length > 0) deps.kickTasks();
      return { row: result.inserted, created: true };
    }
    await storage.delete(input.storageKey);
    throw new Error('could not find a free short code');
  }

  /** Deletes the rows (of ownerId only, unless null), then their bytes; answers what it deleted. */
  async function remove(
    ids: string[],
    ownerId: string | null,
    onlyDead?: DeadLinkTimes,
  ): Promise<UploadRow[]> {
    // Once the rows are gone no instance serves them (every link is read from the database);
    // their bytes go after that.
    const rows = await uploads.deleteMany(ids, ownerId, clock.now().toISOString(), onlyDead);
    await Promise.all(
      rows.flatMap((r) => [
        storage.delete(r.storage_key),
        r.thumbnail_key ? storage.delete(r.thumbnail_key) : Promise.resolve(),
      ]),
    );
    return rows;
  }

  /** A new upload's link: as its owner asked, else as their preferences say; checked. */
  async function decide(owner: Viewer, ask: LinkAsk): Promise<NewLink> {
    return decideLink(ask, await deps.uploadDefaults(owner.id), clock.now());
  }

  async function get(viewer: Viewer, id: string): Promise<UploadRow> {
    const row = await uploads.findById(id);
    if (!row || !canManageUpload(viewer, row)) throw new NotFoundError('Upload not found');
    return row;
  }

  const linkChanges = createLinkChanges({
    uploads,
    clock,
    audit,
    get,
    remove,
    viewGraceMs: deps.viewGraceMs,
  });

  return {
    record,
    get,
    remainingQuota: (userId: string) => uploads.remainingQuota(userId),
    decideLink: decide,
    /** Whether the user's pictures lose their metadata (a chunked upload's, at completion). */
    stripsMetadata: async (owner: Viewer) => (await deps.uploadDefaults(owner.id)).stripMetadata,

    /** Handlers of this module's background tasks. */
    tasks: {
      [TASKS.sha256]: { subject: 'uploadId' as const, run: hashStored },
      [TASKS.thumbnail]: { subject: 'uploadId' as const, run: makeThumbnail },
    },

    /**
     * Streams one file (the simple upload) into storage, hashing as it goes, then records it.
     * `bodyEnd` settles once the request has been read to its end: when it rejects (the body
     * was cut short, or more came after the file), the bytes are removed and nothing is recorded.
     */
    async storeStream(input: {
      owner: Viewer;
      filename: string;
      mimeType: string | undefined;
      body: Readable;
      bodyEnd: Promise<void>;
      /** What the upload asks for its link (unsaid: as the owner's preferences say). */
      link: LinkAsk;
      /** The request's Content-Length, when known: past the inline limit, hash later only. */
      requestBytes?: number;
    }): Promise<UploadRow> {
      // A bad link setting is refused before a byte is stored.
      const defaults = await deps.uploadDefaults(input.owner.id);
      const link = await decideLink(input.link, defaults, clock.now());
      const remaining = await uploads.remainingQuota(input.owner.id);
      const ceiling = Math.min(MAX_SIMPLE_UPLOAD_BYTES, remaining);
      const storageKey = objectKey('u', newStorageId());
      // On local disk, a file past the inline limit is hashed after the response on the
      // hasher's thread, and skips the inline hasher (the request also carries the multipart
      // envelope and fields, allowed for generously). In an object store every file is hashed
      // as it streams in: the store takes bytes slower than SHA-256 runs, and hashing it later
      // would mean downloading it again.
      const inStore = storage.localPath(storageKey) === null;
      const surelyLarge =
        input.requestBytes !== undefined && input.requestBytes > INLINE_HASH_LIMIT + 64 * 1024;
      const hashing = inStore ? inlineHasher(Infinity) : surelyLarge ? null : inlineHasher();
      const filename = cleanDisplayName(input.filename);
      const claimed = resolveMimeType(filename, input.mimeType);
      const taken = intake({
        claimed,
        strip: defaults.stripMetadata,
        maxInput: MAX_SIMPLE_UPLOAD_BYTES,
        tooLarge: () => new PayloadTooLargeError(simpleLimitMessage()),
      });
      const stages = [...taken.stages, ...(hashing ? [hashing.stream] : [])];
      // pipeline() passes on an error the body had before it was attached, too.
      if (stages.length > 0) pipeline([input.body, ...stages], () => {});
      let size: number;
      try {
        ({ size } = await storage.put(storageKey, stages.at(-1) ?? input.body, {
          maxBytes: ceiling,
        }));
      } catch (err) {
        input.body.destroy();
        if (err instanceof StorageSizeError) {
          throw new PayloadTooLargeError(
            remaining < MAX_SIMPLE_UPLOAD_BYTES ? quotaMessage(remaining) : simpleLimitMessage(),
          );
        }
        throw err;
      }
      try {
        await input.bodyEnd;
      } catch (err) {
        await storage.delete(storageKey);
        throw err;
      }
      const { row } = await record({
        owner: input.owner,
        filename,
        mimeType: taken.storedType(),
        size,
        sha256: hashing?.digest() ?? null,
        link: linkColumns(link, clock.now()),
        storageKey,
      });
      return row;
    },

    async list(
      owner: Viewer,
      query: {
        search?: string;
        type?: string;
        /** One of the caller's tags (checked here: another's is a 404). */
        tag?: string;
        sort: Sort;
        page: number;
        limit: number;
      },
    ) {
      if (query.tag && !(await uploads.tagOwnedBy(query.tag, owner.id))) {
        throw new NotFoundError('Tag not found');
      }
      return uploads.list(
        {
          userId: owner.id,
          search: query.search || undefined,
          fileType: query.type || undefined,
          tagId: query.tag || undefined,
          sort: query.sort,
        },
        { page: query.page, limit: query.limit },
      );
    },

    /**
     * Signed links to the file, its preview page and its thumbnail, valid ttlSeconds (an
     * admin's, to another's upload, audited).
     */
    async accessUrls(actor: Actor, id: string, ttlSeconds?: number) {
      const row = await get(actor, id);
      const ttlMs = ttlSeconds === undefined ? undefined : ttlSeconds * 1000;
      const signed = urls.accessUrls(row, clock.now().getTime(), hasThumbnail(row), ttlMs);
      await audit.onOtherUsersUploads(actor, 'upload.link_signed', [row], {
        expiresAt: signed.expiresAt,
      });
      return signed;
    },

    ...linkChanges,

    /**
     * Deletes the uploads of these that the actor may delete, rows first (giving the quota
     * back), then their bytes (the sweep catches a crash between); answers how many went. An
     * admin's delete of another's upload is audited, one entry per upload.
     */
    async delete(actor: Actor, ids: string[]): Promise<number> {
      const rows = await remove([...new Set(ids)], ownerManagedBy(actor));
      await audit.onOtherUsersUploads(actor, 'upload.deleted', rows);
      return rows.length;
    },

    /** Deletes one upload; one the viewer may not delete, or that is gone, is a 404. */
    async deleteOne(actor: Actor, id: string): Promise<void> {
      const rows = await remove([id], ownerManagedBy(actor));
      if (rows.length === 0) throw new NotFoundError('Upload not found');
      await audit.onOtherUsersUploads(actor, 'upload.deleted', rows);
    },

    /**
     * Removes bytes whose rows are gone already (a deleted user's); a failure is logged, and
     * the orphan sweep removes what is left.
     */
    async removeBytes(keys: string[]): Promise<void> {
      for (const key of keys) {
        await storage
          .delete(key)
          .catch((err: unknown) => deps.onError(err, { storageKey: key, action: 'remove bytes' }));
      }
    },

    storageKeysOf: (userId: string) => uploads.storageKeysOf(userId),

    /** Before a user is deleted: their vanity URLs are given up now (reserved, then free). */
    releaseVanitiesOf: (userId: string) =>
      uploads.releaseVanitiesOf(userId, clock.now().toISOString()),

    // --- deletion links ----------------------------------------------------------------------

    /** The upload a deletion link names, when its signature is that upload's; else null. */
    async findForDeletionLink(id: string, signature: unknown): Promise<UploadRow | null> {
      if (!urls.verifyDeletion(id, signature)) return null;
      return (await uploads.findById(id)) ?? null;
    },

    /**
     * Deletes the upload a deletion link names; null when the signature is not its own or the
     * upload is gone (deleted already, by this link or otherwise).
     */
    async deleteByLink(id: string, signature: unknown): Promise<UploadRow | null> {
      if (!urls.verifyDeletion(id, signature)) return null;
      const [row] = await remove([id], null);
      return row ?? null;
    },
  };
}
