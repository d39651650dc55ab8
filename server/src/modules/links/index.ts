/**
 * The links module's only door: reading a link, whoever asks. It owns finding the upload behind
 * a link, its one gate (gate.ts, with policy.ts's rules: privacy, expiry, view limit,
 * password), the answer's headers and pages, opening the bytes, counting and spending views;
 * and the URLs and cookies links are shared and opened by (urls.ts), which uploads and stats
 * present.
 */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Storage } from '../../storage/storage.ts';
import type { AuditService } from '../audit/index.ts';
import type { Module } from '../module.ts';
import { createLinksRepository } from './repository.ts';
import { linksRoutes } from './routes.ts';
import type { AttemptLimits } from './gate.ts';
import { createLinksService, PRESIGNED_SECONDS, type LinksService } from './service.ts';
import type { LinkUrls } from './urls.ts';
import type { PreviewAssets } from './preview-page.ts';
import type { EmbedSettingsOf } from './preview.ts';

export { FILE_CSP, fileCsp } from './content-policy.ts';
export { createLinkUrls, VIEW_GRANT_TTL_MS, type LinkUrls } from './urls.ts';
export type { LinksService } from './service.ts';
export type { PreviewAssets } from './preview-page.ts';
export { sendNoSuchLink } from './routes.ts';

export function createLinksModule(deps: {
  db: Db;
  storage: Storage;
  urls: LinkUrls;
  clock: Clock;
  /** S3_SERVE=presigned: answer file GETs with a redirect to the store. */
  presigned: boolean;
  /** How long browsers and CDNs may keep a public file (PUBLIC_MAX_AGE_SECONDS). */
  publicMaxAgeSeconds: number;
  /** Where an admin's opening of another user's private file is recorded. */
  audit: AuditService;
  /** The limits on wrong link passwords (auth's counters in the database). */
  auth: AttemptLimits;
  /** The preview page's script and stylesheets (the web build's). */
  previewAssets: PreviewAssets;
  /** How an uploader's links present themselves in chat apps (the preferences module's). */
  embedSettings: EmbedSettingsOf;
  log: Logger;
}): Module & { service: LinksService } {
  const service = createLinksService({
    links: createLinksRepository(deps.db),
    storage: deps.storage,
    urls: deps.urls,
    clock: deps.clock,
    presignedSeconds: deps.presigned ? PRESIGNED_SECONDS : null,
    audit: deps.audit,
    attempts: deps.auth,
    verifyPassword,
    embedSettings: deps.embedSettings,
    onError: (err, context) => deps.log.error({ err, ...context }, 'views not committed yet'),
  });
  return {
    name: 'links',
    routes: linksRoutes({
      links: service,
      publicMaxAgeSeconds: deps.publicMaxAgeSeconds,
      publicUrl: deps.urls.publicUrl,
      contentUrl: deps.urls.contentUrl,
      previewAssets: deps.previewAssets,
    }),
    jobs: [],
    tasks: {},
    service,
  };
}
