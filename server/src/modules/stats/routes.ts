import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import type { Links } from '../uploads/index.ts';
import { toAdminStatsResponse, toUserStatsResponse } from './presenter.ts';
import type { StatsService } from './service.ts';

export function statsRoutes(deps: { stats: StatsService; links: Links }) {
  const { stats, links } = deps;
  return [
    route(API.stats, async ({ auth }) =>
      toUserStatsResponse(await stats.forUser(auth.user), links),
    ),
    route(API.adminStats, async () => toAdminStatsResponse(await stats.forInstance())),
  ];
}
