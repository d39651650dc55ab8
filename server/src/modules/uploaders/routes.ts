import { API } from '@upshot/contract';
import contentDisposition from 'content-disposition';
import type { FastifyReply } from 'fastify';
import { route } from '../../plugins/route-table.ts';
import type { Download, UploadersService } from './service.ts';

/** A download holding a token: saved as a file, never cached, never sniffed into a page. */
function sendDownload(reply: FastifyReply, download: Download) {
  return reply
    .headers({
      'content-type': download.contentType,
      'content-disposition': contentDisposition(download.filename),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    })
    .send(download.body);
}

export function uploadersRoutes(deps: { uploaders: UploadersService }) {
  const { uploaders } = deps;
  return [
    route(API.sharexConfig, async ({ auth, reply }) =>
      sendDownload(reply, await uploaders.download(auth.user, auth.user.id, 'sharex')),
    ),
    route(API.userSharexConfig, async ({ auth, params, reply }) =>
      sendDownload(reply, await uploaders.download(auth.user, params.id, 'sharex')),
    ),
    route(API.userBashScript, async ({ auth, params, reply }) =>
      sendDownload(reply, await uploaders.download(auth.user, params.id, 'bash')),
    ),
    route(API.userPowershellScript, async ({ auth, params, reply }) =>
      sendDownload(reply, await uploaders.download(auth.user, params.id, 'powershell')),
    ),
  ];
}
