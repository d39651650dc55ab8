// Preference calls over the api client, and their TanStack Query hooks. The preferences are read
// by the signed-in frame (the theme), the Uploads screen (its page size) and Settings.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PreferencesResponse, UpdatePreferencesRequest } from '@upshot/contract';
import { api } from '../../lib/api-client.ts';

export const preferencesKeys = {
  all: ['preferences'] as const,
};

export const preferencesApi = {
  get: (signal?: AbortSignal) => api.call('getPreferences', { signal }),
  update: (changes: UpdatePreferencesRequest) => api.call('updatePreferences', { body: changes }),
};

/** The signed-in user's preferences; they change only through this app, so they stay fresh. */
export function usePreferencesQuery() {
  return useQuery({
    queryKey: preferencesKeys.all,
    queryFn: ({ signal }) => preferencesApi.get(signal),
    staleTime: Infinity,
  });
}

export function useUpdatePreferencesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: preferencesApi.update,
    // The answer holds every preference as saved: the theme and page size follow at once.
    onSuccess: (response: PreferencesResponse) =>
      queryClient.setQueryData(preferencesKeys.all, response),
  });
}
