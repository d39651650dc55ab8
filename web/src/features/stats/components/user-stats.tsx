import type { UserStats as UserStatsData } from '@upshot/contract';
import { cn } from '../../../lib/utils.ts';
import { breakdownRows } from '../breakdown.ts';
import { FileTypeBreakdown } from './file-type-breakdown.tsx';
import { MostViewedTable } from './most-viewed-table.tsx';
import { UserStatCards } from './stat-cards.tsx';
import { StatsEmpty } from './stats-states.tsx';
import { UploadsChart } from './uploads-chart.tsx';

/**
 * The signed-in user's own numbers. The per-day chart is theirs too, unless `showChart` is off
 * (an admin sees the instance's chart in the admin part instead).
 */
export function UserStatsView({ stats, showChart }: { stats: UserStatsData; showChart: boolean }) {
  const hasViews = stats.mostViewed.length > 0;
  const hasTypes = breakdownRows(stats.fileTypeBreakdown).length > 0;
  return (
    <div className="flex flex-col gap-6">
      <UserStatCards stats={stats} />
      {stats.totalUploads === 0 ? (
        <StatsEmpty />
      ) : (
        showChart && <UploadsChart days={stats.uploadsPerDay} scope="Your uploads" />
      )}
      {(hasViews || hasTypes) && (
        <div className={cn('grid gap-6', hasViews && hasTypes && 'lg:grid-cols-2')}>
          {hasViews && <MostViewedTable uploads={stats.mostViewed} />}
          {hasTypes && <FileTypeBreakdown breakdown={stats.fileTypeBreakdown} />}
        </div>
      )}
    </div>
  );
}
