import {
  BatchUploadIds,
  ListUploadsQuery,
  MAX_SIMPLE_UPLOAD_BYTES,
  SimpleUploadFields,
  UpdateUploadRequest,
  type AccessUrlResponse,
  type BatchDeleteResponse,
  type ListUploadsResponse,
  type Upload,
  type UploadResponse,
} from '@upshot/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PayloadTooLargeError, ValidationError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { parse } from '../../lib/validate.ts';
import { requireAuth } from '../../plugins/auth.ts';
import type { Links } from './links.ts';
import { toUploadResponse } from './presenter.ts';
import { simpleLimitMessage, type UploadsService } from './service.ts';

const IdParams = z.object({ id: z.string().min(1).max(100) });
/** Room for the multipart framing around a file at the simple-upload limit. */
const MULTIPART_OVERHEAD = 64 * 1024;

export function uploadsRoutes(
  app: FastifyInstance,
  deps: { uploadsService: UploadsService; links: Links; clock: Clock },
): void {
  const { uploadsService, links, clock } = deps;
  const present = (row: Parameters<typeof toUploadResponse>[0]) =>
    toUploadResponse(row, links, clock.now().getTime());

  app.post('/api/upload', async (request, reply) => {
    const { user } = requireAuth(request);
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > MAX_SIMPLE_UPLOAD_BYTES + MULTIPART_OVERHEAD) {
      throw new PayloadTooLargeError(simpleLimitMessage());
    }
    if (!request.isMultipart()) {
      throw new ValidationError('Send the file as multipart/form-data in the field "file"');
    }
    const part = await request.file({ limits: { fileSize: Number.MAX_SAFE_INTEGER } });
    if (!part) throw new ValidationError('file is required');
    if (part.fieldname !== 'file') {
      part.file.resume();
      throw new ValidationError(`Unexpected field "${part.fieldname}": send the file in "file"`);
    }
    const fields = parse(SimpleUploadFields, {
      isPublic: (part.fields.isPublic as { value?: unknown } | undefined)?.value,
    });
    const row = await uploadsService.storeStream({
      owner: user,
      filename: part.filename,
      mimeType: part.mimetype,
      body: part.file,
      isPublic: fields.isPublic ?? true,
      // The whole request's length bounds the file's: enough to know a file will be large.
      requestBytes: Number(request.headers['content-length']) || undefined,
    });
    const upload = present(row);
    const body: UploadResponse = { url: upload.url, message: 'File uploaded successfully', upload };
    return reply.status(201).send(body);
  });

  app.get('/api/uploads', async (request): Promise<ListUploadsResponse> => {
    const { user } = requireAuth(request);
    const query = parse(ListUploadsQuery, request.query);
    const { rows, total } = await uploadsService.list(user, query);
    return { uploads: rows.map(present), total, page: query.page, limit: query.limit };
  });

  app.get('/api/uploads/:id', async (request): Promise<Upload> => {
    const { user } = requireAuth(request);
    const { id } = parse(IdParams, request.params);
    return present(await uploadsService.get(user, id));
  });

  app.get('/api/uploads/:id/access-url', async (request): Promise<AccessUrlResponse> => {
    const { user } = requireAuth(request);
    const { id } = parse(IdParams, request.params);
    const row = await uploadsService.get(user, id);
    return links.accessUrls(row, clock.now().getTime());
  });

  app.patch('/api/uploads/:id', async (request): Promise<Upload> => {
    const { user } = requireAuth(request);
    const { id } = parse(IdParams, request.params);
    const body = parse(UpdateUploadRequest, request.body);
    return present(await uploadsService.setVanity(user, id, body.vanityUrl));
  });

  app.delete('/api/uploads/:id', async (request, reply) => {
    const { user } = requireAuth(request);
    const { id } = parse(IdParams, request.params);
    await uploadsService.get(user, id); // 404 for what the caller may not delete
    await uploadsService.delete(user, [id]);
    return reply.status(204).send();
  });

  app.post('/api/uploads/batch/delete', async (request): Promise<BatchDeleteResponse> => {
    const { user } = requireAuth(request);
    const { uploadIds } = parse(BatchUploadIds, request.body);
    return { deletedCount: await uploadsService.delete(user, uploadIds) };
  });
}
