import { API, MAX_SIMPLE_UPLOAD_BYTES, UploadFileForm } from '@upshot/contract';
import { PayloadTooLargeError } from '../../errors.ts';
import { parse } from '../../lib/validate.ts';
import { readMultipartFile } from '../../plugins/multipart.ts';
import { route } from '../../plugins/route-table.ts';
import type { FastifyReply } from 'fastify';
import { confirmDeletionPage, deletedPage, invalidDeletionLinkPage } from './deletion-page.ts';
import type { UploadPresenter } from './presenter.ts';
import { simpleLimitMessage, type UploadsService } from './service.ts';

/** Room for the multipart framing and fields around a file at the simple-upload limit. */
const MULTIPART_ENVELOPE_BYTES = 64 * 1024;
const FormFields = UploadFileForm.pick({ isPublic: true });

/** Answers one of the deletion link's pages: never cached, never indexed. */
function html(reply: FastifyReply, status: number, body: string) {
  return reply
    .status(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-robots-tag': 'noindex',
    })
    .send(body);
}

export function uploadsRoutes(deps: { uploads: UploadsService; present: UploadPresenter }) {
  const { uploads, present } = deps;

  return [
    route(API.uploadFile, async ({ request, reply, auth }) => {
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > MAX_SIMPLE_UPLOAD_BYTES + MULTIPART_ENVELOPE_BYTES) {
        throw new PayloadTooLargeError(simpleLimitMessage());
      }
      const part = await readMultipartFile(request, reply, {
        fileField: 'file',
        usage: 'Send the file as multipart/form-data in the field "file"',
      });
      const fields = parse(FormFields, part.fields); // a refusal drops the rest of the body
      const row = await uploads.storeStream({
        owner: auth.user,
        filename: part.filename,
        mimeType: part.mimeType,
        body: part.stream,
        bodyEnd: part.finished,
        isPublic: fields.isPublic,
        // The whole request's length bounds the file's: enough to know a file will be large.
        requestBytes: declared || undefined,
      });
      return present.created(row);
    }),

    route(API.listUploads, async ({ auth, query }) => {
      const { rows, ...page } = await uploads.list(auth.user, query);
      return { uploads: await present.many(rows), ...page };
    }),

    route(API.getUpload, async ({ auth, params }) =>
      present.one(await uploads.get(auth.user, params.id)),
    ),

    route(API.uploadAccessUrl, async ({ auth, params }) =>
      uploads.accessUrls(auth.user, params.id),
    ),

    route(API.updateUpload, async ({ auth, params, body }) =>
      present.one(await uploads.setVanity(auth.user, params.id, body.vanityUrl)),
    ),

    route(API.deleteUpload, async ({ auth, params }) => {
      await uploads.deleteOne(auth.user, params.id);
      return undefined;
    }),

    route(API.batchDeleteUploads, async ({ auth, body }) => ({
      deletedCount: await uploads.delete(auth.user, body.uploadIds),
    })),

    // A deletion link: the page only shows what would go; its form's POST deletes.
    route(API.deletionPage, async ({ reply, params, query }) => {
      const row = await uploads.findForDeletionLink(params.id, query.signature);
      if (!row || !query.signature) return html(reply, 404, invalidDeletionLinkPage());
      return html(reply, 200, confirmDeletionPage(row, query.signature));
    }),

    route(API.deleteByLink, async ({ reply, params, body }) => {
      const row = await uploads.deleteByLink(params.id, body.signature);
      return row ? html(reply, 200, deletedPage(row)) : html(reply, 404, invalidDeletionLinkPage());
    }),
  ];
}
