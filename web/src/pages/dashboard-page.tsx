import { PageHeader } from '../components/page-header.tsx';
import { useAuth } from '../features/auth/index.ts';
import {
  AdminStatsLoadError,
  AdminStatsLoading,
  AdminStatsView,
  StatsLoadError,
  StatsLoading,
  UserStatsView,
  useDashboardStats,
} from '../features/stats/index.ts';

export function DashboardPage() {
  const { user, isAdmin } = useAuth();
  const { stats, adminStats } = useDashboardStats(isAdmin);

  let own;
  if (stats.isPending) own = <StatsLoading />;
  else if (!stats.data) own = <StatsLoadError onRetry={() => void stats.refetch()} />;
  else own = <UserStatsView stats={stats.data} showChart={!isAdmin} />;

  // Only an admin's dashboard has the instance's part.
  let system = null;
  if (adminStats?.isPending) system = <AdminStatsLoading />;
  else if (adminStats?.data) system = <AdminStatsView stats={adminStats.data} />;
  else if (adminStats) {
    system = <AdminStatsLoadError onRetry={() => void adminStats.refetch()} />;
  }

  return (
    <div className="flex flex-col gap-8">
      <PageHeader title="Dashboard" description={`Welcome back, ${user?.username ?? ''}`} />
      {own}
      {system}
    </div>
  );
}
