import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import type { PreferencesService } from './service.ts';

export function preferencesRoutes(deps: { preferences: PreferencesService }) {
  const { preferences } = deps;
  return [
    route(API.getPreferences, async ({ auth }) => ({
      preferences: await preferences.get(auth.user),
    })),
    route(API.updatePreferences, async ({ auth, body }) => ({
      preferences: await preferences.update(auth.user, body),
    })),
  ];
}
