import type { AdminStats as AdminStatsData } from '@upshot/contract';
import type { ReactNode } from 'react';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { AdminStatCards } from './stat-cards.tsx';
import { StatsLoadError } from './stats-states.tsx';
import { MostActiveUsersTable } from './most-active-users-table.tsx';
import { RecentActivityTable } from './recent-activity-table.tsx';
import { UploadsChart } from './uploads-chart.tsx';

const HEADING_ID = 'dashboard-system';

function AdminFrame({ children }: { children: ReactNode }) {
  return (
    <section aria-labelledby={HEADING_ID} className="flex flex-col gap-4 border-t pt-8">
      <div className="flex flex-col gap-1">
        <h2 id={HEADING_ID} className="text-lg font-semibold tracking-tight">
          System
        </h2>
        <p className="text-sm text-muted-foreground">Every user of this instance</p>
      </div>
      {children}
    </section>
  );
}

/** The admin-only part of the Dashboard: the whole instance. */
export function AdminStatsView({ stats }: { stats: AdminStatsData }) {
  return (
    <AdminFrame>
      <AdminStatCards stats={stats} />
      <UploadsChart days={stats.uploadsPerDay} scope="All users" level={3} />
      <div className="grid gap-6 lg:grid-cols-5">
        <MostActiveUsersTable users={stats.mostActiveUsers} className="lg:col-span-2" />
        <RecentActivityTable activity={stats.recentActivity} className="lg:col-span-3" />
      </div>
    </AdminFrame>
  );
}

export function AdminStatsLoading() {
  return (
    <AdminFrame>
      <div role="status" className="flex flex-col gap-6">
        <span className="sr-only">Loading...</span>
        <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          {[0, 1, 2, 3].map((key) => (
            <Skeleton key={key} className="h-20 rounded-xl sm:h-28" />
          ))}
        </div>
        <Skeleton className="h-52 rounded-xl sm:h-60" />
      </div>
    </AdminFrame>
  );
}

export function AdminStatsLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <AdminFrame>
      <StatsLoadError onRetry={onRetry} />
    </AdminFrame>
  );
}
