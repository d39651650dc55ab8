// Both statistics queries of the Dashboard, and the one toast that says either failed.
import { useEffect } from 'react';
import { toast } from 'sonner';
import { isApiError } from '../../../lib/api-client.ts';
import { useAdminStatsQuery, useStatsQuery } from '../api.ts';

const STATS_LOAD_ERROR = 'Failed to load statistics';

// One id for both queries: when both fail together the user sees one toast, not two.
const TOAST_ID = 'stats-load-error';

export function useDashboardStats(isAdmin: boolean) {
  const stats = useStatsQuery();
  const adminStats = useAdminStatsQuery(isAdmin);

  const failure = [stats, ...(isAdmin ? [adminStats] : [])].find((query) => query.isError);
  const failedAt = failure?.errorUpdatedAt;
  const error = failure?.error;
  useEffect(() => {
    // A 401 is not a failure to report: the session is over and the sign-in screen follows.
    if (failedAt !== undefined && !isApiError(error, 401)) {
      toast.error(STATS_LOAD_ERROR, { id: TOAST_ID });
    }
  }, [failedAt, error]);

  return { stats, adminStats: isAdmin ? adminStats : undefined };
}
