/** The statistics of one user and of the whole instance. */
import { STATS_DAYS, STATS_RECENT, STATS_TOP } from '@upshot/contract';
import type { Clock } from '../../lib/clock.ts';
import type { Viewer } from '../../lib/caller.ts';
import type { DayRow, StatsRepository } from './repository.ts';

export type StatsService = ReturnType<typeof createStatsService>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The last STATS_DAYS UTC days, oldest first and today last, with zero days filled in. */
export function dayRange(now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: STATS_DAYS }, (_, i) =>
    new Date(today - (STATS_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

function series(range: string[], rows: DayRow[]) {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return range.map((date) => ({
    date,
    count: byDay.get(date)?.count ?? 0,
    bytes: byDay.get(date)?.bytes ?? 0,
  }));
}

export function createStatsService(deps: { stats: StatsRepository; clock: Clock }) {
  const { stats, clock } = deps;
  return {
    async forUser(viewer: Viewer) {
      const range = dayRange(clock.now());
      const [totals, mostViewed, types, days] = await Promise.all([
        stats.userTotals(viewer.id),
        stats.mostViewed(viewer.id, STATS_TOP),
        stats.typeCounts(viewer.id),
        stats.days(viewer.id, range[0]!),
      ]);
      return {
        totals,
        mostViewed,
        // The largest group first; equal ones by name, so the order is stable.
        types: types.sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : 1)),
        days: series(range, days),
      };
    },

    async forInstance() {
      const range = dayRange(clock.now());
      const [totals, mostActive, recent, days] = await Promise.all([
        stats.instanceTotals(),
        stats.mostActiveUsers(STATS_TOP),
        stats.recentUploads(STATS_RECENT),
        stats.days(null, range[0]!),
      ]);
      return { totals, mostActive, recent, days: series(range, days) };
    },

    rebuild: () => stats.rebuild(),
  };
}
