// The statistics feature's public surface; other modules import from here, never from its internals.
export {
  AdminStatsLoadError,
  AdminStatsLoading,
  AdminStatsView,
} from './components/admin-stats.tsx';
export { StatsLoadError, StatsLoading } from './components/stats-states.tsx';
export { UserStatsView } from './components/user-stats.tsx';
export { useDashboardStats } from './hooks/use-dashboard-stats.ts';
export { useUserStats } from './hooks/use-user-stats.ts';
