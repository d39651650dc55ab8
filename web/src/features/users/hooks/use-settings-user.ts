import { useLoadFailureToast } from '../../../components/load-error.tsx';
import { useUserQuery } from '../api.ts';

/** The user a Settings section shows; any section that cannot load it says so in one toast. */
export function useSettingsUser(userId: string) {
  const query = useUserQuery(userId);
  useLoadFailureToast(query, 'Failed to load settings');
  return query;
}
