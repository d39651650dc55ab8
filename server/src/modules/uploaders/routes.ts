import { API } from '@upshot/contract';
import contentDisposition from 'content-disposition';
import type { FastifyReply } from 'fastify';
import { route } from '../../plugins/route-table.ts';
import type { AuditService } from '../audit/index.ts';
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

type Kind = 'sharex' | 'bash' | 'powershell';

export function uploadersRoutes(deps: {
  uploaders: UploadersService;
  users: UsersService;
  audit: AuditService;
}) {
  const { uploaders, users, audit } = deps;
  // Themself or an admin; anyone else is refused (403) before anything is read. An admin's
  // download of someone else's goes to the audit log.
  const ownerFor = async (viewer: Viewer & { username: string }, id: string, kind: Kind) => {
    const owner = await users.uploaderOwner(viewer, id);
    await audit.onOtherUser(viewer, { id, username: owner.username }, 'user.config_downloaded', {
      kind,
    });
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
