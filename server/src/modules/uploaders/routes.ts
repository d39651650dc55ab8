import { API } from '@upshot/contract';
import contentDisposition from 'content-disposition';
import type { FastifyReply } from 'fastify';
import { route } from '../../plugins/route-table.ts';
import type { UsersService, Viewer } from '../users/index.ts';
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

export type RecordDownload = (
  actor: Viewer & { username: string },
  target: { id: string; username: string },
  kind: 'sharex' | 'bash' | 'powershell',
) => Promise<void>;

export function uploadersRoutes(deps: {
  uploaders: UploadersService;
  users: UsersService;
  recordDownload: RecordDownload;
}) {
  const { uploaders, users, recordDownload } = deps;
  // Themself or an admin; anyone else is refused (403) before anything is read. An admin's
  // download of someone else's goes to the audit log.
  const ownerFor = async (
    viewer: Viewer & { username: string },
    id: string,
    kind: Parameters<RecordDownload>[2],
  ) => {
    const owner = await users.uploaderOwner(viewer, id);
    await recordDownload(viewer, { id, username: owner.username }, kind);
    return owner;
  };

  return [
    route(API.sharexConfig, async ({ auth, reply }) =>
      sendDownload(
        reply,
        uploaders.sharexConfig(await ownerFor(auth.user, auth.user.id, 'sharex')),
      ),
    ),
    route(API.userSharexConfig, async ({ auth, params, reply }) =>
      sendDownload(reply, uploaders.sharexConfig(await ownerFor(auth.user, params.id, 'sharex'))),
    ),
    route(API.userBashScript, async ({ auth, params, reply }) =>
      sendDownload(reply, uploaders.bashScript(await ownerFor(auth.user, params.id, 'bash'))),
    ),
    route(API.userPowershellScript, async ({ auth, params, reply }) =>
      sendDownload(
        reply,
        uploaders.powershellScript(await ownerFor(auth.user, params.id, 'powershell')),
      ),
    ),
  ];
}
