// Sends one file to the server: one request up to the server's simple-upload limit, the
// resumable chunked protocol above it, in chunks of the size the server gives.
// Progress is reported from real bytes sent and held below CHUNK_PROGRESS_CAP until the server
// has confirmed the whole file (the caller shows 100 then).
import type { ChunkInitRequest, ServerConfig, UploadResponse } from '@upshot/contract';
import {
  CHUNK_PROGRESS_CAP,
  CHUNK_SIZE,
  MAX_SIMPLE_UPLOAD_BYTES,
  NO_VIEW_LIMIT,
  expectedChunkCount,
} from '@upshot/contract/constants';
import { api, ApiError, getApiErrorMessage } from '../../lib/api-client.ts';

/** Waits before each retry of a failed chunk or completion; one entry per retry. */
export const CHUNK_RETRY_DELAYS_MS = [500, 1000, 2000] as const;
/**
 * A chunk whose earlier request died with its server (an instance killed mid-chunk) stays
 * claimed until the server lets another request take it over (30 s without a sign of life):
 * until then each try is a 409 "already being received". Such a chunk is tried again every
 * CHUNK_HELD_RETRY_MS for up to CHUNK_HELD_WAIT_MS, apart from the retries above.
 */
export const CHUNK_HELD_RETRY_MS = 2500;
export const CHUNK_HELD_WAIT_MS = 40_000;

export type UploadLimits = Pick<ServerConfig, 'chunkSize' | 'maxSimpleUploadBytes'>;

/** The server's defaults, for when its config could not be read. */
export const DEFAULT_LIMITS: UploadLimits = {
  chunkSize: CHUNK_SIZE,
  maxSimpleUploadBytes: MAX_SIMPLE_UPLOAD_BYTES,
};

/** What the brief names each failing step, for its toast. */
export const UPLOAD_FAILED = 'Upload failed';
export const INIT_FAILED = 'Failed to initialize upload';
export const CHUNK_FAILED = 'Failed to upload chunk';
export const COMPLETE_FAILED = 'Failed to complete upload';

/** A file that did not make it: the step that failed and the server's explanation, if any. */
export class UploadFailure extends Error {
  override readonly name = 'UploadFailure';

  constructor(
    readonly step: string,
    readonly serverMessage: string | undefined,
    options?: { cause?: unknown },
  ) {
    // The server's text says more than the step's name, so it is the one shown on the file's row.
    super(serverMessage ?? step, options);
  }
}

/** How a new upload's link behaves; each one left out follows the user's preferences. */
export type UploadLinkOptions = {
  isPublic?: boolean;
  /** 'never', a duration ('7d') or an ISO date-time. */
  expires?: string;
  /** null: no limit. */
  maxViews?: number | null;
  password?: string;
};

export type UploadFileOptions = UploadLinkOptions & {
  /** 0 to CHUNK_PROGRESS_CAP, as bytes go out. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  /** A chunked session started by an earlier attempt at this file: continue it. */
  resumeUploadId?: string;
  /** Told the chunked session's id as soon as it exists, so a later attempt can resume it. */
  onChunkedSession?: (uploadId: string) => void;
  /** What the server's config says (GET /api/config); its defaults when left out. */
  limits?: UploadLimits;
  retryDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
};

export function isChunkedUpload(
  file: { size: number },
  maxSimpleUploadBytes = MAX_SIMPLE_UPLOAD_BYTES,
): boolean {
  return file.size > maxSimpleUploadBytes;
}

export function uploadFile(file: File, options: UploadFileOptions = {}): Promise<UploadResponse> {
  const { maxSimpleUploadBytes } = options.limits ?? DEFAULT_LIMITS;
  return isChunkedUpload(file, maxSimpleUploadBytes)
    ? uploadChunked(file, options)
    : uploadSimple(file, options);
}

function percentOf(sent: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(CHUNK_PROGRESS_CAP, (sent / total) * 100);
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** Worth sending again: the connection dropped, or the server or a proxy was briefly unwell. */
function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiError)) return !isAbort(error); // a network failure
  const { status } = error;
  return status === 408 || status === 429 || status >= 500;
}

/** Another request holds this chunk: a live one (it will be stored) or a dead one (it will lapse). */
function isChunkHeld(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && /being received/i.test(error.message);
}

/**
 * Completing is safe to repeat (the server answers the same upload again), so besides transient
 * failures a 409 is worth waiting out: another request is completing it, or a chunk is still
 * being stored.
 */
function isCompleteRetryable(error: unknown): boolean {
  return isTransient(error) || (error instanceof ApiError && error.status === 409);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A view limit as a form field: digits, or 'none' for no limit. */
function maxViewsField(maxViews: number | null | undefined): string | undefined {
  if (maxViews === undefined) return undefined;
  return maxViews === null ? NO_VIEW_LIMIT : String(maxViews);
}

async function uploadSimple(file: File, options: UploadFileOptions): Promise<UploadResponse> {
  try {
    return await api.upload('uploadFile', {
      // Fields before the file: the server reads them as the stream reaches the file part.
      fields: {
        isPublic: options.isPublic === undefined ? undefined : String(options.isPublic),
        expires: options.expires,
        maxViews: maxViewsField(options.maxViews),
        password: options.password,
        file,
      },
      signal: options.signal,
      onProgress: (loaded, total) => options.onProgress?.(percentOf(loaded, total)),
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new UploadFailure(UPLOAD_FAILED, getApiErrorMessage(error), { cause: error });
  }
}

function chunkStatus(uploadId: string) {
  return api.call('chunkedStatus', { params: { uploadId } });
}

/** Whether the server has chunk `index` stored (false when it cannot be asked). */
function chunkReceived(uploadId: string, index: number): Promise<boolean> {
  return chunkStatus(uploadId).then(
    (status) => status.receivedChunks.includes(index),
    () => false,
  );
}

async function uploadChunked(file: File, options: UploadFileOptions): Promise<UploadResponse> {
  const { signal, onProgress } = options;
  const retryDelays = options.retryDelaysMs ?? CHUNK_RETRY_DELAYS_MS;
  const sleep = options.sleep ?? delay;
  const totalSize = file.size;
  // The session fixes the chunk size: the one the server answers, not a constant of this app.
  let chunkSize = (options.limits ?? DEFAULT_LIMITS).chunkSize;
  let totalChunks = expectedChunkCount(totalSize, chunkSize);

  let uploadId = options.resumeUploadId;
  const stored = new Set<number>();
  if (uploadId) {
    try {
      const status = await chunkStatus(uploadId);
      chunkSize = status.chunkSize;
      totalChunks = status.totalChunks;
      for (const index of status.receivedChunks) stored.add(index);
    } catch (error) {
      if (isAbort(error)) throw error;
      uploadId = undefined; // expired or swept: start a new session
      stored.clear();
    }
  }
  if (!uploadId) {
    const body: ChunkInitRequest = {
      filename: file.name,
      mimeType: file.type,
      totalSize,
      totalChunks,
    };
    if (options.isPublic !== undefined) body.isPublic = options.isPublic;
    if (options.expires !== undefined) body.expires = options.expires;
    if (options.maxViews !== undefined) body.maxViews = options.maxViews;
    if (options.password !== undefined) body.password = options.password;
    try {
      const session = await api.call('chunkedInit', { body, signal });
      uploadId = session.uploadId;
      chunkSize = session.chunkSize;
      totalChunks = expectedChunkCount(totalSize, chunkSize);
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new UploadFailure(INIT_FAILED, getApiErrorMessage(error), { cause: error });
    }
    options.onChunkedSession?.(uploadId);
  }
  const sessionId = uploadId;
  const chunkBytes = (index: number) =>
    Math.max(0, Math.min(chunkSize, totalSize - index * chunkSize));

  let storedBytes = 0;
  for (const index of stored) storedBytes += chunkBytes(index);
  onProgress?.(percentOf(storedBytes, totalSize));

  const sendChunk = (index: number) => {
    const start = index * chunkSize;
    return api.upload('chunkedChunk', {
      // The server needs to know where the bytes go before they arrive.
      fields: {
        uploadId: sessionId,
        chunkIndex: String(index),
        chunk: file.slice(start, start + chunkBytes(index)),
      },
      signal,
      onProgress: (loaded, total) => {
        // `total` includes the multipart framing: scale to the chunk's own bytes.
        const sent = total > 0 ? (loaded / total) * chunkBytes(index) : 0;
        onProgress?.(percentOf(storedBytes + sent, totalSize));
      },
    });
  };

  for (let index = 0; index < totalChunks; index++) {
    if (stored.has(index)) continue;
    let heldWaitedMs = 0;
    for (let attempt = 0; ;) {
      signal?.throwIfAborted();
      try {
        await sendChunk(index);
        break;
      } catch (error) {
        if (isAbort(error)) throw error;
        if (isChunkHeld(error) && heldWaitedMs < CHUNK_HELD_WAIT_MS) {
          heldWaitedMs += CHUNK_HELD_RETRY_MS;
          await sleep(CHUNK_HELD_RETRY_MS);
          // Stored meanwhile by the request that held it: nothing to send.
          if (await chunkReceived(sessionId, index)) break;
          continue;
        }
        if (!isTransient(error) || attempt >= retryDelays.length) {
          throw new UploadFailure(CHUNK_FAILED, getApiErrorMessage(error), { cause: error });
        }
      }
      await sleep(retryDelays[attempt] ?? 0);
      attempt += 1;
      // The failed request may still have reached the server: ask before sending it again.
      if (await chunkReceived(sessionId, index)) break;
    }
    stored.add(index);
    storedBytes += chunkBytes(index);
    onProgress?.(percentOf(storedBytes, totalSize));
  }

  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    try {
      return await api.call('chunkedComplete', { body: { uploadId: sessionId }, signal });
    } catch (error) {
      if (isAbort(error)) throw error;
      if (!isCompleteRetryable(error) || attempt >= retryDelays.length) {
        throw new UploadFailure(COMPLETE_FAILED, getApiErrorMessage(error), { cause: error });
      }
    }
    await sleep(retryDelays[attempt] ?? 0);
  }
}
