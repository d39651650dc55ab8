/**
 * The links module's only door: reading a link, whoever asks. It owns finding the upload behind
 * a link, deciding access (policy.ts), the answer's headers, opening the bytes and counting
 * views; and the URLs links are shared by (urls.ts), which uploads and stats present.
 */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Storage } from '../../storage/storage.ts';
import type { AuditService } from '../audit/index.ts';
import type { Module } from '../module.ts';
import { createLinksRepository } from './repository.ts';
import { linksRoutes } from './routes.ts';
import { createLinksService, PRESIGNED_SECONDS, type LinksService } from './service.ts';
import type { LinkUrls } from './urls.ts';

export { FILE_CSP } from './content-policy.ts';
export { createLinkUrls, type LinkUrls } from './urls.ts';
export type { LinksService } from './service.ts';

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
  log: Logger;
}): Module & { service: LinksService } {
  const service = createLinksService({
    links: createLinksRepository(deps.db),
    storage: deps.storage,
    urls: deps.urls,
    clock: deps.clock,
    presignedSeconds: deps.presigned ? PRESIGNED_SECONDS : null,
    audit: deps.audit,
    onError: (err, context) => deps.log.error({ err, ...context }, 'views not committed yet'),
  });
  return {
    name: 'links',
    routes: linksRoutes({ links: service, publicMaxAgeSeconds: deps.publicMaxAgeSeconds }),
    jobs: [],
    tasks: {},
    service,
  };
}
