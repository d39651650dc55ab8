/**
 * Resumable chunked uploads. All state is in the database and the storage driver, so any
 * instance may take any chunk, and a restart loses nothing but the chunk in flight.
 *
 * A chunk claims its part (a conditional update of an open session) before it writes, and
 * shows it is alive while it writes; completion claims the session (open -> completing) and
 * joins the parts only when every part is stored and none is being written. So once a session
 * is completing or completed, a chunk is refused with 409 and the committed bytes never change.
 * Completion can be repeated: a claim whose request died is taken over after a while, one whose
 * request failed once it had asked the store to join the parts is taken over at once (the
 * session is never reopened then: the parts may be joined), and a completed session answers the
 * upload it made.
 */
import crypto from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import { chargedBytes, cleanDisplayName, expectedChunkCount } from '@upshot/contract';
import type { ChunkedUploadRow, UploadRow } from '../../db/schema.ts';
import {
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newStorageId, resolveMimeType } from '../../lib/files.ts';
import { formatBytes } from '../../lib/format.ts';
import { objectKey, StorageSizeError, type Storage } from '../../storage/storage.ts';
import type { UploadsService } from '../uploads/index.ts';
import type { Viewer } from '../../lib/caller.ts';
import { finishCompletion, linkColumnsOf, lostAnswer } from './finish.ts';
import type { ChunkedUploadsRepository } from './repository.ts';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** A writer shows it is alive at least this often while bytes arrive... */
export const PART_HEARTBEAT_MS = 5_000;
/** ...and a part whose writer has not for this long may be claimed by another request. */
export const PART_STALE_MS = 30_000;
/** A completing request shows it is alive this often; after COMPLETION_STALE_MS another may take over. */
const COMPLETION_HEARTBEAT_MS = 20_000;
export const COMPLETION_STALE_MS = 2 * 60_000;

export type ChunkedUploadsService = ReturnType<typeof createChunkedUploadsService>;

export function createChunkedUploadsService(deps: {
  sessions: ChunkedUploadsRepository;
  uploads: UploadsService;
  storage: Storage;
  clock: Clock;
  maxUploadBytes: number;
  chunkSize: number;
  /** Where a failure after the answer goes (the hashing of a large file, for example). */
  onError: (err: unknown, context: Record<string, unknown>) => void;
}) {
  const { sessions, uploads, storage, clock } = deps;
  const nowIso = () => clock.now().toISOString();
  const ago = (ms: number) => new Date(clock.now().getTime() - ms).toISOString();

  /** The caller's session, or a 404 that does not say whether it exists for someone else. */
  async function ownSession(owner: Viewer, uploadId: string): Promise<ChunkedUploadRow> {
    const session = await sessions.find(uploadId);
    if (!session || session.user_id !== owner.id) {
      throw new NotFoundError('Upload session not found');
    }
    if (session.status !== 'completed' && Date.parse(session.expires_at) <= clock.now().getTime()) {
      throw new NotFoundError('Upload session expired; start the upload again');
    }
    return session;
  }

  function refuseChunk(session: ChunkedUploadRow): never {
    throw new ConflictError(
      session.status === 'completed'
        ? 'Upload is already complete'
        : 'Upload is already being completed',
    );
  }

  function chunkSizeAt(session: ChunkedUploadRow, index: number): number {
    const size = Number(session.chunk_size);
    return index < session.total_chunks - 1
      ? size
      : Number(session.total_size) - size * (session.total_chunks - 1);
  }

  /**
   * Passes the chunk's bytes on only while this writer holds its part: before passing more,
   * once PART_HEARTBEAT_MS have gone by, it says it is alive, and stops (409) if another
   * request has taken the part meanwhile. No byte goes on more than PART_HEARTBEAT_MS after the
   * claim was last confirmed, well inside PART_STALE_MS, so a taken-over writer never writes.
   */
  function heldWhileWriting(uploadId: string, index: number, writer: string): Transform {
    let confirmedAt = clock.now().getTime();
    return new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (clock.now().getTime() - confirmedAt < PART_HEARTBEAT_MS) return callback(null, chunk);
        sessions.touchPart(uploadId, index, writer, nowIso()).then((held) => {
          if (!held) return callback(new ConflictError(`Chunk ${index} was sent again meanwhile`));
          confirmedAt = clock.now().getTime();
          callback(null, chunk);
        }, callback);
      },
    });
  }

  return {
    /** Sessions started and not yet completed, aborted or expired. */
    countOpen: () => sessions.countOpen(),

    async init(
      owner: Viewer,
      input: {
        filename: string;
        mimeType: string;
        totalSize: number;
        totalChunks: number;
        /** What the upload asks for its link (unsaid: as the owner's preferences say). */
        isPublic?: boolean;
        expires?: string;
        maxViews?: number | null;
        password?: string;
      },
    ): Promise<ChunkedUploadRow> {
      if (input.totalSize > deps.maxUploadBytes) {
        throw new PayloadTooLargeError(
          `File is larger than the ${formatBytes(deps.maxUploadBytes)} limit`,
        );
      }
      const expected = expectedChunkCount(input.totalSize, deps.chunkSize);
      if (input.totalChunks !== expected) {
        throw new ValidationError(
          `totalChunks must be ${expected} for a ${input.totalSize}-byte file in ${deps.chunkSize}-byte chunks`,
        );
      }
      const quotaExceeded = async () =>
        new PayloadTooLargeError(
          `Storage quota exceeded: ${formatBytes(await uploads.remainingQuota(owner.id))} left`,
        );
      // The whole charge is reserved as the session opens; this look first spares the store a
      // multipart upload that could not fit.
      const reserved = chargedBytes(input.totalSize);
      if (reserved > (await uploads.remainingQuota(owner.id))) throw await quotaExceeded();
      const filename = cleanDisplayName(input.filename);
      // Checked now, applied when the upload is made (a duration counts from then).
      const link = await uploads.decideLink(owner, input);
      const storageKey = objectKey('u', newStorageId());
      const now = clock.now();
      const row = {
        id: crypto.randomUUID(),
        user_id: owner.id,
        filename,
        mime_type: resolveMimeType(filename, input.mimeType),
        total_size: input.totalSize,
        total_chunks: input.totalChunks,
        chunk_size: deps.chunkSize,
        is_public: link.isPublic ? (1 as const) : (0 as const),
        link_expires: link.expires,
        max_views: link.maxViews,
        password_hash: link.passwordHash,
        storage_key: storageKey,
        multipart_id: await storage.createMultipart(storageKey),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
      };
      if ((await sessions.insert(row, reserved)) === 'quota') {
        await storage.abortMultipart(row.multipart_id, storageKey).catch(() => undefined);
        throw await quotaExceeded();
      }
      return { ...row, status: 'open', claim: null, claimed_at: null, upload_id: null, reserved };
    },

    /**
     * Stores chunk `index`. `bodyEnd` settles once the request has been read to its end; the
     * part is recorded only when it resolves.
     */
    async putChunk(
      owner: Viewer,
      uploadId: string,
      index: number,
      body: Readable,
      bodyEnd: Promise<void>,
    ): Promise<void> {
      const session = await ownSession(owner, uploadId);
      if (session.status !== 'open') refuseChunk(session);
      if (index >= session.total_chunks) {
        throw new ValidationError(`chunkIndex must be between 0 and ${session.total_chunks - 1}`);
      }
      const size = chunkSizeAt(session, index);
      const writer = crypto.randomUUID();
      const claim = await sessions.claimPart({
        uploadId,
        index,
        size,
        writer,
        now: nowIso(),
        staleBefore: ago(PART_STALE_MS),
      });
      if (claim === 'session-closed') refuseChunk((await sessions.find(uploadId)) ?? session);
      if (claim === 'part-busy') {
        throw new ConflictError(`Chunk ${index} is already being received`);
      }

      const held = heldWhileWriting(uploadId, index, writer);
      // pipeline() passes on an error the body had before it was attached, too.
      pipeline(body, held, () => {});
      let etag: string;
      try {
        etag = await storage.putPart(
          session.multipart_id,
          session.storage_key,
          { index, offset: index * Number(session.chunk_size), size },
          held,
        );
        await bodyEnd;
      } catch (err) {
        body.destroy();
        await sessions.releasePart(uploadId, index, writer);
        if (err instanceof StorageSizeError) throw new ValidationError(err.message);
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new NotFoundError('Upload session expired; start the upload again');
        }
        throw err;
      }
      if (!(await sessions.storePart(uploadId, index, writer, nowIso(), etag))) {
        throw new ConflictError(`Chunk ${index} was sent again meanwhile`);
      }
    },

    /** The session and the indexes of its stored chunks (all of them once it is completed). */
    async status(
      owner: Viewer,
      uploadId: string,
    ): Promise<{ session: ChunkedUploadRow; received: number[] }> {
      const session = await ownSession(owner, uploadId);
      const received =
        session.status === 'completed'
          ? Array.from({ length: session.total_chunks }, (_, i) => i)
          : await sessions.storedIndexes(uploadId);
      return { session, received };
    },

    /** Joins the chunks into the upload; `created` is false when it was made before. */
    async complete(owner: Viewer, uploadId: string): Promise<{ row: UploadRow; created: boolean }> {
      const session = await ownSession(owner, uploadId);
      if (session.status === 'completed' && session.upload_id) {
        return lostAnswer(await uploads.get(owner, session.upload_id));
      }
      // A link asked to expire at a time that has passed meanwhile would be dead at birth: the
      // session ends here, its reservation given back (the client starts again).
      const expiresAt = linkColumnsOf(session, clock.now()).expires_at;
      if (expiresAt !== null && Date.parse(expiresAt) <= clock.now().getTime()) {
        if (await sessions.deleteAbortable(uploadId, ago(COMPLETION_STALE_MS))) {
          await storage.abortMultipart(session.multipart_id, session.storage_key);
        }
        throw new ValidationError(
          `expires: the link's expiry (${expiresAt}) passed before the upload was complete; upload it again`,
        );
      }
      const missingOf = async () => {
        const stored = new Set(await sessions.storedIndexes(uploadId));
        const missing: number[] = [];
        for (let i = 0; i < session.total_chunks; i++) if (!stored.has(i)) missing.push(i);
        return missing;
      };
      const missingError = (missing: number[]) => {
        const shown = missing.slice(0, 20).join(', ');
        return new ValidationError(
          `Missing chunks: ${shown}${missing.length > 20 ? ` and ${missing.length - 20} more` : ''}`,
        );
      };
      const receiving = async () =>
        (await sessions.parts(uploadId)).find(
          (p) => p.state === 'writing' && (p.alive_at ?? '') > ago(PART_STALE_MS),
        );
      const stillReceiving = (index: number) =>
        new ConflictError(
          `Chunk ${index} is still being received; complete the upload once it is stored`,
        );
      const missingBefore = await missingOf();
      if (missingBefore.length > 0) {
        // A chunk sent again is not stored while it is being received: wait for it.
        const busy = await receiving();
        if (busy) throw stillReceiving(busy.chunk_index);
        // A completion that lost its claim may have made the upload (its id is the session's)
        // and removed the parts: answer it.
        const made = await uploads.get(owner, session.id).catch((err: unknown) => {
          if (err instanceof NotFoundError) return null;
          throw err;
        });
        if (made) {
          await sessions.markMade(uploadId, made.id);
          return lostAnswer(made);
        }
        throw missingError(missingBefore);
      }

      const claim = crypto.randomUUID();
      if (!(await sessions.claimCompletion(uploadId, claim, nowIso(), ago(COMPLETION_STALE_MS)))) {
        const now = await sessions.find(uploadId);
        if (now?.status === 'completed' && now.upload_id) {
          return lostAnswer(await uploads.get(owner, now.upload_id));
        }
        if (now?.status !== 'completing') {
          throw new NotFoundError('Upload session expired; start the upload again');
        }
        throw new ConflictError('Upload is already being completed');
      }

      // No chunk can claim a part from here on; one that did before must have finished.
      const writing = await receiving();
      const missing = await missingOf();
      if (writing || missing.length > 0) {
        await sessions.reopen(uploadId, claim);
        if (writing) throw stillReceiving(writing.chunk_index);
        throw missingError(missing);
      }

      const heartbeat = setInterval(() => {
        sessions
          .touchCompletion(uploadId, claim, nowIso())
          .catch((err: unknown) => deps.onError(err, { uploadId, action: 'completion heartbeat' }));
      }, COMPLETION_HEARTBEAT_MS);
      try {
        return await finishCompletion(deps, owner, session, claim);
      } finally {
        clearInterval(heartbeat);
      }
    },

    async abort(owner: Viewer, uploadId: string): Promise<void> {
      const session = await ownSession(owner, uploadId);
      if (session.status === 'completed') refuseChunk(session);
      // Open, or left by a completion that failed or died; a completion under way (its claim
      // fresh) goes on undisturbed. Parts already joined are an object no upload points at,
      // which the orphan sweep removes; one a completion recorded stays an upload.
      if (!(await sessions.deleteAbortable(uploadId, ago(COMPLETION_STALE_MS)))) {
        refuseChunk((await sessions.find(uploadId)) ?? session);
      }
      await storage.abortMultipart(session.multipart_id, session.storage_key);
    },

    /** The multipart bytes of a user's unfinished sessions (to remove them with the user). */
    unfinishedOf: (userId: string) => sessions.unfinishedOf(userId),

    /** Removes multipart bytes whose sessions are gone already (a deleted user's). */
    async abortAll(parts: { multipart_id: string; storage_key: string }[]): Promise<void> {
      for (const p of parts) {
        await storage.abortMultipart(p.multipart_id, p.storage_key).catch(() => undefined);
      }
    },

    /** Removes expired sessions and the bytes of those never completed; returns how many. */
    async sweepExpired(): Promise<number> {
      let removed = 0;
      for (;;) {
        // A completion in progress (its claim fresh) finishes first, even past the expiry.
        const batch = await sessions.expired(nowIso(), ago(COMPLETION_STALE_MS), 100);
        if (batch.length === 0) return removed;
        for (const s of batch) {
          // Spared when a completion claimed it since the batch was read: it finishes first.
          const deleted = await sessions.deleteExpired(s.id, ago(COMPLETION_STALE_MS));
          if (!deleted) continue;
          // A completed session's bytes are its upload's now.
          if (deleted.status !== 'completed') {
            await storage.abortMultipart(s.multipart_id, s.storage_key);
          }
          removed += 1;
        }
      }
    },
  };
}
