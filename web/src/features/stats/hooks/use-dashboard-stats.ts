import { useLoadFailureToast } from '../../../components/load-error.tsx';
import { useAdminStatsQuery, useStatsQuery } from '../api.ts';

/** Both statistics queries of the Dashboard; either failing says so in the one toast they share. */
export function useDashboardStats(isAdmin: boolean) {
  const stats = useStatsQuery();
  const adminStats = useAdminStatsQuery(isAdmin);
  useLoadFailureToast(stats, 'Failed to load statistics');
  // Only an admin's dashboard shows the instance's part, or its failure.
  useLoadFailureToast(adminStats, 'Failed to load statistics', () => !isAdmin);
  return { stats, adminStats: isAdmin ? adminStats : undefined };
}
