/** The statistics module's only door: a user's statistics and the whole instance's. */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Module } from '../module.ts';
import type { LinkUrls } from '../links/index.ts';
import { createStatsRepository } from './repository.ts';
import { statsRoutes } from './routes.ts';
import { createStatsService, type StatsService } from './service.ts';

export type { StatsService } from './service.ts';

export function createStatsModule(deps: {
  db: Db;
  clock: Clock;
  urls: LinkUrls;
}): Module & { service: StatsService } {
  const service = createStatsService({ stats: createStatsRepository(deps.db), clock: deps.clock });
  return {
    name: 'stats',
    routes: statsRoutes({ stats: service, urls: deps.urls }),
    jobs: [],
    tasks: {},
    service,
  };
}
