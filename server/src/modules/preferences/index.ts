/** The preferences module's only door: a user's defaults (upload privacy, page size, theme). */
import type { Db } from '../../db/database.ts';
import type { Module } from '../module.ts';
import { createPreferencesRepository } from './repository.ts';
import { preferencesRoutes } from './routes.ts';
import { createPreferencesService, type PreferencesService } from './service.ts';

export type {
  EmbedPreferences,
  LinkDefaults,
  PreferencesService,
  UploadDefaults,
} from './service.ts';

export function createPreferencesModule(deps: {
  db: Db;
}): Module & { service: PreferencesService } {
  const service = createPreferencesService({
    preferences: createPreferencesRepository(deps.db),
  });
  return {
    name: 'preferences',
    routes: preferencesRoutes({ preferences: service }),
    jobs: [],
    tasks: {},
    service,
  };
}
