import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import type { LinkUrls } from '../links/index.ts';
import { toAdminStatsResponse, toUserStatsResponse } from './presenter.ts';
import type { StatsService } from './service.ts';

export function statsRoutes(deps: { stats: StatsService; urls: LinkUrls }) {
  const { stats, urls } = deps;
  return [
    route(API.stats, async ({ auth }) => toUserStatsResponse(await stats.forUser(auth.user), urls)),
    route(API.adminStats, async () => toAdminStatsResponse(await stats.forInstance())),
  ];
}
