import { DEFAULT_PAGE_SIZE } from '@upshot/contract/constants';
import { usePreferencesQuery } from '../api.ts';

/**
 * The Uploads page size from the user's preferences. `ready` is false until the preferences
 * have answered (or failed: then the default), so the list is fetched once, at the right size.
 */
export function useUploadsPerPage(): { limit: number; ready: boolean } {
  const { data, isPending } = usePreferencesQuery();
  return { limit: data?.preferences.uploadsPerPage ?? DEFAULT_PAGE_SIZE, ready: !isPending };
}
