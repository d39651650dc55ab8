import { API, ChunkForm } from '@upshot/contract';
import { parse } from '../../lib/validate.ts';
import { readMultipartFile } from '../../plugins/multipart.ts';
import { route } from '../../plugins/route-table.ts';
import type { UploadPresenter } from '../uploads/index.ts';
import { toChunkInitResponse, toChunkStatusResponse } from './presenter.ts';
import type { ChunkedUploadsService } from './service.ts';

const ChunkFields = ChunkForm.pick({ uploadId: true, chunkIndex: true });

export function chunkedUploadsRoutes(deps: {
  chunked: ChunkedUploadsService;
  present: UploadPresenter;
}) {
  const { chunked, present } = deps;

  return [
    route(API.chunkedInit, async ({ auth, body }) =>
      toChunkInitResponse(await chunked.init(auth.user, body)),
    ),

    route(API.chunkedChunk, async ({ request, reply, auth, query }) => {
      const part = await readMultipartFile(request, reply, {
        fileField: 'chunk',
        maxFieldBytes: 200,
        usage: 'Send the chunk as multipart/form-data with fields uploadId, chunkIndex, then chunk',
      });
      // The bytes stream straight to storage, so their identifiers come first (as fields) or
      // in the query string.
      const fields = parse(ChunkFields, {
        uploadId: part.fields.uploadId ?? query.uploadId,
        chunkIndex: part.fields.chunkIndex ?? query.chunkIndex,
      });
      await chunked.putChunk(
        auth.user,
        fields.uploadId,
        fields.chunkIndex,
        part.stream,
        part.finished,
      );
      return undefined;
    }),

    route(API.chunkedStatus, async ({ auth, params }) => {
      const { session, received } = await chunked.status(auth.user, params.uploadId);
      return toChunkStatusResponse(session, received);
    }),

    route(API.chunkedAbort, async ({ auth, params }) => {
      await chunked.abort(auth.user, params.uploadId);
      return undefined;
    }),

    route(API.chunkedComplete, async ({ auth, body, reply }) => {
      const { row, created } = await chunked.complete(auth.user, body.uploadId);
      if (!created) reply.status(200);
      return present.created(row);
    }),
  ];
}
