import { z } from 'zod';
import { MAX_PAGE_SIZE, MIN_PAGE_SIZE, THEMES } from './constants.ts';

/** A user's preferences, each with its default (new uploads public, 20 uploads a page). */
export const Preferences = z
  .object({
    /** true: an upload that does not say is public. */
    defaultUploadPrivacy: z.boolean(),
    emailNotifications: z.boolean(),
    theme: z.enum(THEMES),
    uploadsPerPage: z.number().int().min(MIN_PAGE_SIZE).max(MAX_PAGE_SIZE),
  })
  .meta({ id: 'Preferences' });
export type Preferences = z.infer<typeof Preferences>;

export const DEFAULT_PREFERENCES: Preferences = {
  defaultUploadPrivacy: true,
  emailNotifications: true,
  theme: 'system',
  uploadsPerPage: 20,
};

/** Any subset; a field that is not a preference is refused, never ignored. */
export const UpdatePreferencesRequest = Preferences.partial().strict();
export type UpdatePreferencesRequest = z.infer<typeof UpdatePreferencesRequest>;

export const PreferencesResponse = z.object({ preferences: Preferences });
export type PreferencesResponse = z.infer<typeof PreferencesResponse>;
