import { z } from 'zod';
import {
  API,
  Boolish,
  ExpiresInput,
  LINK_HEADERS,
  LinkPassword,
  MAX_SIMPLE_UPLOAD_BYTES,
  MaxViewsField,
  UploadFileForm,
} from '@upshot/contract';
import type { FastifyRequest } from 'fastify';
import { PayloadTooLargeError, ValidationError } from '../../errors.ts';
import { headerValue, utf8HeaderValue } from '../../lib/headers.ts';
import { parse } from '../../lib/validate.ts';
import { readMultipartFile } from '../../plugins/multipart.ts';
import { route } from '../../plugins/route-table.ts';
import type { FastifyReply } from 'fastify';
import type { LinkAsk } from './link-settings.ts';
import { confirmDeletionPage, deletedPage, invalidDeletionLinkPage } from './deletion-page.ts';
import type { UploadPresenter } from './presenter.ts';
import { simpleLimitMessage, type UploadsService } from './service.ts';

/** Room for the multipart framing and fields around a file at the simple-upload limit. */
const MULTIPART_ENVELOPE_BYTES = 64 * 1024;
const FormFields = UploadFileForm.omit({ file: true });
/** The same settings as headers (ShareX and scripts set headers more easily than fields). */
const HeaderFields = z.object({
  [LINK_HEADERS.isPublic]: Boolish.optional(),
  [LINK_HEADERS.expires]: ExpiresInput.optional(),
  [LINK_HEADERS.maxViews]: MaxViewsField.optional(),
  [LINK_HEADERS.password]: LinkPassword.optional(),
});

/** What an upload asks for its link: its headers, then its fields (a field wins). */
function linkAsk(request: FastifyRequest, fields: Record<string, string>): LinkAsk {
  const h = request.headers;
  const headers = parse(HeaderFields, {
    [LINK_HEADERS.isPublic]: headerValue(h[LINK_HEADERS.isPublic]),
    [LINK_HEADERS.expires]: headerValue(h[LINK_HEADERS.expires]),
    [LINK_HEADERS.maxViews]: headerValue(h[LINK_HEADERS.maxViews]),
    [LINK_HEADERS.password]: utf8HeaderValue(h[LINK_HEADERS.password]),
  });
  const form = parse(FormFields, fields);
  return {
    isPublic: form.isPublic ?? headers[LINK_HEADERS.isPublic],
    expires: form.expires ?? headers[LINK_HEADERS.expires],
    maxViews: form.maxViews !== undefined ? form.maxViews : headers[LINK_HEADERS.maxViews],
    password: form.password ?? headers[LINK_HEADERS.password],
  };
}

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
      const link = linkAsk(request, part.fields); // a refusal drops the rest of the body
      const row = await uploads.storeStream({
        owner: auth.user,
        filename: part.filename,
        mimeType: part.mimeType,
        body: part.stream,
        bodyEnd: part.finished,
        link,
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

    route(API.uploadAccessUrl, async ({ auth, params, query }) =>
      uploads.accessUrls(auth.user, params.id, query.ttl),
    ),

    route(API.updateUpload, async ({ auth, params, body }) =>
      present.one(await uploads.update(auth.user, params.id, body)),
    ),

    route(API.deleteUpload, async ({ auth, params }) => {
      await uploads.deleteOne(auth.user, params.id);
      return undefined;
    }),

    route(API.batchDeleteUploads, async ({ auth, body }) => ({
      deletedCount: await uploads.delete(auth.user, body.uploadIds),
    })),

    route(API.batchPrivacy, async ({ auth, body }) => ({
      updatedCount: await uploads.setPrivacy(auth.user, body.uploadIds, body.isPublic),
    })),

    // A deletion link: the page only shows what would go; its form's POST deletes.
    route(API.deletionPage, async ({ reply, params, query }) => {
      const row = await uploads.findForDeletionLink(params.id, query.signature);
      if (!row || !query.signature) return html(reply, 404, invalidDeletionLinkPage());
      return html(reply, 200, confirmDeletionPage(row, query.signature));
    }),

    // The form repeats the signature; a script's bare POST to the link has it in the query.
    route(API.deleteByLink, async ({ reply, params, query, body }) => {
      const signature = body.signature ?? query.signature;
      if (signature === undefined) throw new ValidationError('signature is required');
      const row = await uploads.deleteByLink(params.id, signature);
      return row ? html(reply, 200, deletedPage(row)) : html(reply, 404, invalidDeletionLinkPage());
    }),
  ];
}
