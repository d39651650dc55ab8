/**
 * Resumable chunked uploads. All state is in the database and the storage driver, so any
 * instance may take any chunk, and a restart loses nothing but the chunk in flight.
 */
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ChunkStatusResponse } from '@upshot/contract';
import type { ChunkedUploadRow, UploadRow, UserRow } from '../../db/schema.ts';
import {
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatBytes } from '../../lib/format.ts';
import { objectKey, StorageSizeError, type Storage } from '../../storage/storage.ts';
import type { UploadsRepository } from '../uploads/repository.ts';
import type { ChunkedUploadsRepository } from './repository.ts';
import {
  cleanFilename,
  newStorageId,
  resolveMimeType,
  type UploadsService,
} from '../uploads/service.ts';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

type Owner = Pick<UserRow, 'id' | 'role'>;

export type ChunkedUploadsService = ReturnType<typeof createChunkedUploadsService>;

export function createChunkedUploadsService(deps: {
  sessions: ChunkedUploadsRepository;
  uploads: UploadsRepository;
  uploadsService: UploadsService;
  storage: Storage;
  clock: Clock;
  maxUploadBytes: number;
  chunkSize: number;
}) {
  const { sessions, uploads, uploadsService, storage, clock } = deps;

  /** The caller's live session, or a 404 that does not say whether it exists for someone else. */
  async function ownSession(owner: Owner, uploadId: string): Promise<ChunkedUploadRow> {
    const session = await sessions.find(uploadId);
    if (!session || session.user_id !== owner.id) {
      throw new NotFoundError('Upload session not found');
    }
    if (Date.parse(session.expires_at) <= clock.now().getTime()) {
      throw new NotFoundError('Upload session expired; start the upload again');
    }
    return session;
  }

  function chunkSizeAt(session: ChunkedUploadRow, index: number): number {
    const size = Number(session.chunk_size);
    return index < session.total_chunks - 1
      ? size
      : Number(session.total_size) - size * (session.total_chunks - 1);
  }

  return {
    async init(
      owner: Owner,
      input: {
        filename: string;
        mimeType: string;
        totalSize: number;
        totalChunks: number;
        isPublic: boolean;
      },
    ): Promise<ChunkedUploadRow> {
      if (input.totalSize > deps.maxUploadBytes) {
        throw new PayloadTooLargeError(
          `File is larger than the ${formatBytes(deps.maxUploadBytes)} limit`,
        );
      }
      const expected = Math.max(1, Math.ceil(input.totalSize / deps.chunkSize));
      if (input.totalChunks !== expected) {
        throw new ValidationError(
          `totalChunks must be ${expected} for a ${input.totalSize}-byte file in ${deps.chunkSize}-byte chunks`,
        );
      }
      const remaining = await uploads.remainingQuota(owner.id);
      if (input.totalSize > remaining) {
        throw new PayloadTooLargeError(`Storage quota exceeded: ${formatBytes(remaining)} left`);
      }
      const filename = cleanFilename(input.filename);
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
        is_public: input.isPublic ? (1 as const) : (0 as const),
        storage_key: storageKey,
        multipart_id: await storage.createMultipart(storageKey),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
      };
      await sessions.insert(row);
      return { ...row, status: 'open' };
    },

    async putChunk(owner: Owner, uploadId: string, index: number, body: Readable): Promise<void> {
      const session = await ownSession(owner, uploadId);
      if (session.status !== 'open') throw new ConflictError('Upload is already being completed');
      if (!Number.isInteger(index) || index < 0 || index >= session.total_chunks) {
        throw new ValidationError(`chunkIndex must be between 0 and ${session.total_chunks - 1}`);
      }
      const size = chunkSizeAt(session, index);
      await sessions.forgetPart(uploadId, index);
      try {
        await storage.putPart(
          session.multipart_id,
          session.storage_key,
          { index, offset: index * Number(session.chunk_size), size },
          body,
        );
      } catch (err) {
        body.resume();
        if (err instanceof StorageSizeError) throw new ValidationError(err.message);
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new NotFoundError('Upload session expired; start the upload again');
        }
        throw err;
      }
      await sessions.recordPart(uploadId, index, size, clock.now().toISOString());
    },

    async status(owner: Owner, uploadId: string): Promise<ChunkStatusResponse> {
      const session = await ownSession(owner, uploadId);
      return {
        uploadId: session.id,
        filename: session.filename,
        totalSize: Number(session.total_size),
        totalChunks: session.total_chunks,
        chunkSize: Number(session.chunk_size),
        receivedChunks: await sessions.receivedIndexes(uploadId),
        expiresAt: session.expires_at,
      };
    },

    async complete(owner: Owner, uploadId: string): Promise<UploadRow> {
      const session = await ownSession(owner, uploadId);
      const received = new Set(await sessions.receivedIndexes(uploadId));
      const missing: number[] = [];
      for (let i = 0; i < session.total_chunks; i++) if (!received.has(i)) missing.push(i);
      if (missing.length > 0) {
        const shown = missing.slice(0, 20).join(', ');
        throw new ValidationError(
          `Missing chunks: ${shown}${missing.length > 20 ? ` and ${missing.length - 20} more` : ''}`,
        );
      }
      if (!(await sessions.claimForCompletion(uploadId))) {
        throw new ConflictError('Upload is already being completed');
      }
      try {
        await storage.completeMultipart(
          session.multipart_id,
          session.storage_key,
          Number(session.total_size),
        );
      } catch (err) {
        await sessions.reopen(uploadId);
        if (err instanceof StorageSizeError) throw new ValidationError(err.message);
        throw err;
      }
      let row: UploadRow;
      try {
        row = await uploadsService.record({
          owner,
          filename: session.filename,
          mimeType: session.mime_type,
          size: Number(session.total_size),
          sha256: null,
          isPublic: session.is_public === 1,
          storageKey: session.storage_key,
        });
      } finally {
        // Recorded, or refused (quota) with its bytes removed: either way the session is over.
        await sessions.delete(uploadId);
      }
      // Hashing a large file takes seconds; the client need not wait for it. A crash before it
      // ends is caught by the hashMissing job.
      uploadsService.hashStored(row).catch(() => {});
      return row;
    },

    async abort(owner: Owner, uploadId: string): Promise<void> {
      const session = await ownSession(owner, uploadId);
      await sessions.delete(uploadId);
      await storage.abortMultipart(session.multipart_id, session.storage_key);
    },

    /** Removes expired sessions and their bytes; returns how many. */
    async sweepExpired(): Promise<number> {
      let removed = 0;
      for (;;) {
        const batch = await sessions.expired(clock.now().toISOString(), 100);
        if (batch.length === 0) return removed;
        for (const s of batch) {
          await sessions.delete(s.id);
          await storage.abortMultipart(s.multipart_id, s.storage_key);
          removed += 1;
        }
      }
    },
  };
}
