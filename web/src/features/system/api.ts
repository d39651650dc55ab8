// What the server says about itself (GET /api/config): the public link origin and the upload
// limits. Fetched once per session; it changes only when the server restarts with new settings.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';

export const serverConfigQuery = queryOptions({
  queryKey: ['config'] as const,
  queryFn: ({ signal }) => api.call('config', { signal }),
  staleTime: Infinity,
  gcTime: Infinity,
});

export function useServerConfig() {
  return useQuery(serverConfigQuery);
}
