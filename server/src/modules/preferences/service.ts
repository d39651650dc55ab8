/** A user's preferences: the defaults until changed, any subset changed at once. */
import {
  DEFAULT_PREFERENCES,
  type Preferences,
  type UpdatePreferencesRequest,
} from '@upshot/contract';
import type { PreferencesRow } from '../../db/schema.ts';
import type { Viewer } from '../../lib/caller.ts';
import type { PreferencesRepository } from './repository.ts';

export type PreferencesService = ReturnType<typeof createPreferencesService>;

function fromRow(row: PreferencesRow | undefined): Preferences {
  if (!row) return DEFAULT_PREFERENCES;
  return {
    defaultUploadPrivacy: row.default_upload_public === 1,
    emailNotifications: row.email_notifications === 1,
    theme: row.theme,
    uploadsPerPage: Number(row.uploads_per_page),
  };
}

export function createPreferencesService(deps: { preferences: PreferencesRepository }) {
  const { preferences } = deps;
  const get = async (userId: string) => fromRow(await preferences.find(userId));
  return {
    get: (viewer: Viewer) => get(viewer.id),

    async update(viewer: Viewer, change: UpdatePreferencesRequest): Promise<Preferences> {
      const next = { ...(await get(viewer.id)), ...change };
      await preferences.save({
        user_id: viewer.id,
        default_upload_public: next.defaultUploadPrivacy ? 1 : 0,
        email_notifications: next.emailNotifications ? 1 : 0,
        theme: next.theme,
        uploads_per_page: next.uploadsPerPage,
      });
      return next;
    },

    /** Whether this user wants notification emails. */
    wantsEmail: async (userId: string) => (await get(userId)).emailNotifications,

    /** Whether an upload of this user that does not say is public. */
    defaultPublic: async (userId: string) => (await get(userId)).defaultUploadPrivacy,
  };
}
