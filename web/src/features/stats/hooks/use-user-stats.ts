import { useLoadFailureToast } from '../../../components/load-error.tsx';
import { useStatsQuery } from '../api.ts';

/** The signed-in user's statistics outside the Dashboard (Profile), with the brief's failure toast. */
export function useUserStats() {
  const stats = useStatsQuery();
  useLoadFailureToast(stats, 'Failed to load statistics');
  return stats;
}
