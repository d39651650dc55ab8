// Sends one file to the server: one request up to 100 MB, the resumable chunked protocol above.
// Progress is reported from real bytes sent and held below CHUNK_PROGRESS_CAP until the server
// has confirmed the whole file (the caller shows 100 then).
import {
  CHUNK_PROGRESS_CAP,
  CHUNK_SIZE,
  MAX_SIMPLE_UPLOAD_BYTES,
  expectedChunkCount,
  type ChunkCompleteResponse,
  type ChunkInitRequest,
  type ChunkInitResponse,
  type ChunkStatusResponse,
  type UploadResponse,
} from '@upshot/contract';
import { apiClient, getApiErrorMessage, getApiErrorStatus } from '../../lib/api-client.ts';

/** Waits before each retry of a failed chunk; one entry per retry. */
export const CHUNK_RETRY_DELAYS_MS = [500, 1000, 2000] as const;

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

export type UploadFileOptions = {
  /** 0 to CHUNK_PROGRESS_CAP, as bytes go out. */
  onProgress?: (percent: number) => void;
  /** Omitted: the user's default privacy. */
  isPublic?: boolean;
  signal?: AbortSignal;
  /** A chunked session started by an earlier attempt at this file: continue it. */
  resumeUploadId?: string;
  /** Told the chunked session's id as soon as it exists, so a later attempt can resume it. */
  onChunkedSession?: (uploadId: string) => void;
  retryDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
};

export function isChunkedUpload(file: { size: number }): boolean {
  return file.size > MAX_SIMPLE_UPLOAD_BYTES;
}

export function uploadFile(file: File, options: UploadFileOptions = {}): Promise<UploadResponse> {
  return isChunkedUpload(file) ? uploadChunked(file, options) : uploadSimple(file, options);
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
  if (error instanceof TypeError) return true;
  const status = getApiErrorStatus(error);
  return status === undefined || status === 408 || status === 429 || status >= 500;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function uploadSimple(file: File, options: UploadFileOptions): Promise<UploadResponse> {
  const form = new FormData();
  // Fields before the file: the server reads them as the stream reaches the file part.
  if (options.isPublic !== undefined) form.append('isPublic', String(options.isPublic));
  form.append('file', file, file.name);
  try {
    return await apiClient.upload<UploadResponse>('/upload', form, {
      signal: options.signal,
      onProgress: (loaded, total) => options.onProgress?.(percentOf(loaded, total)),
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new UploadFailure(UPLOAD_FAILED, getApiErrorMessage(error), { cause: error });
  }
}

async function chunkStatus(uploadId: string): Promise<ChunkStatusResponse> {
  return apiClient.get<ChunkStatusResponse>(`/chunked-upload/${encodeURIComponent(uploadId)}`);
}

async function uploadChunked(file: File, options: UploadFileOptions): Promise<UploadResponse> {
  const { signal, onProgress } = options;
  const retryDelays = options.retryDelaysMs ?? CHUNK_RETRY_DELAYS_MS;
  const sleep = options.sleep ?? delay;
  const totalSize = file.size;
  const totalChunks = expectedChunkCount(totalSize);
  const chunkBytes = (index: number) =>
    Math.max(0, Math.min(CHUNK_SIZE, totalSize - index * CHUNK_SIZE));

  let uploadId = options.resumeUploadId;
  const stored = new Set<number>();
  if (uploadId) {
    try {
      for (const index of (await chunkStatus(uploadId)).receivedChunks) stored.add(index);
    } catch {
      uploadId = undefined; // expired or swept: start a new session
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
    try {
      uploadId = (await apiClient.post<ChunkInitResponse>('/chunked-upload/init', body)).uploadId;
    } catch (error) {
      throw new UploadFailure(INIT_FAILED, getApiErrorMessage(error), { cause: error });
    }
    options.onChunkedSession?.(uploadId);
  }
  const sessionId = uploadId;

  let storedBytes = 0;
  for (const index of stored) storedBytes += chunkBytes(index);
  onProgress?.(percentOf(storedBytes, totalSize));

  const sendChunk = (index: number) => {
    const form = new FormData();
    // The server needs to know where the bytes go before they arrive.
    form.append('uploadId', sessionId);
    form.append('chunkIndex', String(index));
    const start = index * CHUNK_SIZE;
    form.append('chunk', file.slice(start, start + chunkBytes(index)), file.name);
    return apiClient.upload<void>('/chunked-upload/chunk', form, {
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
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      try {
        await sendChunk(index);
        break;
      } catch (error) {
        if (isAbort(error)) throw error;
        if (!isTransient(error) || attempt >= retryDelays.length) {
          throw new UploadFailure(CHUNK_FAILED, getApiErrorMessage(error), { cause: error });
        }
      }
      await sleep(retryDelays[attempt] ?? 0);
      // The failed request may still have reached the server: ask before sending it again.
      const received = await chunkStatus(sessionId).then(
        (status) => status.receivedChunks,
        () => [] as number[],
      );
      if (received.includes(index)) break;
    }
    stored.add(index);
    storedBytes += chunkBytes(index);
    onProgress?.(percentOf(storedBytes, totalSize));
  }

  signal?.throwIfAborted();
  try {
    return await apiClient.post<ChunkCompleteResponse>('/chunked-upload/complete', {
      uploadId: sessionId,
    });
  } catch (error) {
    throw new UploadFailure(COMPLETE_FAILED, getApiErrorMessage(error), { cause: error });
  }
}
