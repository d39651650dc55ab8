import {
  ChunkCompleteRequest,
  ChunkInitRequest,
  type ChunkCompleteResponse,
  type ChunkInitResponse,
  type ChunkStatusResponse,
} from '@upshot/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ValidationError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { parse } from '../../lib/validate.ts';
import { requireAuth } from '../../plugins/auth.ts';
import type { Links } from '../uploads/links.ts';
import { toUploadResponse } from '../uploads/presenter.ts';
import type { ChunkedUploadsService } from './service.ts';

const UploadIdParams = z.object({ uploadId: z.string().min(1).max(100) });
const ChunkFields = z.object({
  uploadId: z.string({ message: 'uploadId is required' }).min(1).max(100),
  chunkIndex: z.coerce.number({ message: 'chunkIndex must be a whole number' }).int().min(0),
});

export function chunkedUploadsRoutes(
  app: FastifyInstance,
  deps: { chunked: ChunkedUploadsService; links: Links; clock: Clock },
): void {
  const { chunked, links, clock } = deps;

  app.post('/api/chunked-upload/init', async (request, reply) => {
    const { user } = requireAuth(request);
    const body = parse(ChunkInitRequest, request.body);
    const session = await chunked.init(user, { ...body, isPublic: body.isPublic ?? true });
    const res: ChunkInitResponse = {
      uploadId: session.id,
      chunkSize: Number(session.chunk_size),
      expiresAt: session.expires_at,
    };
    return reply.status(201).send(res);
  });

  app.post('/api/chunked-upload/chunk', async (request, reply) => {
    const { user } = requireAuth(request);
    if (!request.isMultipart()) {
      throw new ValidationError(
        'Send the chunk as multipart/form-data with fields uploadId, chunkIndex, then chunk',
      );
    }
    const part = await request.file({
      limits: { fileSize: Number.MAX_SAFE_INTEGER, fields: 10, fieldSize: 200 },
    });
    if (!part) throw new ValidationError('chunk is required');
    if (part.fieldname !== 'chunk') {
      part.file.resume();
      throw new ValidationError(`Unexpected field "${part.fieldname}": send the bytes in "chunk"`);
    }
    // The file part streams straight to storage, so its identifiers must come before it
    // (as fields) or in the query string.
    const field = (name: string) =>
      (part.fields[name] as { value?: unknown } | undefined)?.value ??
      (request.query as Record<string, unknown>)[name];
    const fields = ChunkFields.safeParse({
      uploadId: field('uploadId'),
      chunkIndex: field('chunkIndex'),
    });
    if (!fields.success) {
      part.file.resume();
      throw new ValidationError(
        'uploadId and chunkIndex are required, as fields sent before the chunk field',
      );
    }
    await chunked.putChunk(user, fields.data.uploadId, fields.data.chunkIndex, part.file);
    return reply.status(204).send();
  });

  app.get('/api/chunked-upload/:uploadId', async (request): Promise<ChunkStatusResponse> => {
    const { user } = requireAuth(request);
    const { uploadId } = parse(UploadIdParams, request.params);
    return chunked.status(user, uploadId);
  });

  app.delete('/api/chunked-upload/:uploadId', async (request, reply) => {
    const { user } = requireAuth(request);
    const { uploadId } = parse(UploadIdParams, request.params);
    await chunked.abort(user, uploadId);
    return reply.status(204).send();
  });

  app.post('/api/chunked-upload/complete', async (request, reply) => {
    const { user } = requireAuth(request);
    const { uploadId } = parse(ChunkCompleteRequest, request.body);
    const row = await chunked.complete(user, uploadId);
    const upload = toUploadResponse(row, links, clock.now().getTime());
    const res: ChunkCompleteResponse = {
      url: upload.url,
      message: 'File uploaded successfully',
      upload,
    };
    return reply.status(201).send(res);
  });
}
