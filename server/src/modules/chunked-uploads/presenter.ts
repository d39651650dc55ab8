import type { ChunkInitResponse, ChunkStatusResponse } from '@upshot/contract';
import type { ChunkedUploadRow } from '../../db/schema.ts';

export function toChunkInitResponse(session: ChunkedUploadRow): ChunkInitResponse {
  return {
    uploadId: session.id,
    chunkSize: Number(session.chunk_size),
    expiresAt: session.expires_at,
  };
}

export function toChunkStatusResponse(
  session: ChunkedUploadRow,
  received: number[],
): ChunkStatusResponse {
  return {
    uploadId: session.id,
    filename: session.filename,
    totalSize: Number(session.total_size),
    totalChunks: session.total_chunks,
    chunkSize: Number(session.chunk_size),
    receivedChunks: received,
    expiresAt: session.expires_at,
  };
}
