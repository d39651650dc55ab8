/** The tags module's only door: a user's tags and which of their uploads carry them. */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Module } from '../module.ts';
import type { UploadPresenter, UploadsService } from '../uploads/index.ts';
import { createTagsRepository } from './repository.ts';
import { tagsRoutes } from './routes.ts';
import { createTagsService, type TagsService } from './service.ts';

export type { TagsService } from './service.ts';

export function createTagsModule(deps: {
  db: Db;
  clock: Clock;
  uploads: UploadsService;
  present: UploadPresenter;
}): Module & { service: TagsService } {
  const service = createTagsService({ tags: createTagsRepository(deps.db), clock: deps.clock });
  return {
    name: 'tags',
    routes: tagsRoutes({ tags: service, uploads: deps.uploads, present: deps.present }),
    jobs: [],
    tasks: {},
    service,
  };
}
