// Statistics calls over the api client, and their TanStack Query hooks. Stats change with every
// upload, view and delete anywhere, so they are never taken as fresh: each visit refetches.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';

export const statsKeys = {
  all: ['stats'] as const,
  user: ['stats', 'user'] as const,
  admin: ['stats', 'admin'] as const,
};

export const statsApi = {
  user: (signal?: AbortSignal) => api.call('stats', { signal }),
  admin: (signal?: AbortSignal) => api.call('adminStats', { signal }),
};

/** The signed-in user's own statistics. */
export function useStatsQuery() {
  return useQuery({
    queryKey: statsKeys.user,
    queryFn: ({ signal }) => statsApi.user(signal),
    staleTime: 0,
  });
}

/** The whole instance's statistics; only asked for when `enabled` (admins: others get a 403). */
export function useAdminStatsQuery(enabled: boolean) {
  return useQuery({
    queryKey: statsKeys.admin,
    queryFn: ({ signal }) => statsApi.admin(signal),
    staleTime: 0,
    enabled,
  });
}
