import { z } from 'zod';
import {
  isDefaultExpiry,
  MAX_PAGE_SIZE,
  MAX_VIEWS_LIMIT,
  MIN_PAGE_SIZE,
  NEVER_EXPIRES,
  THEMES,
} from './constants.ts';

/** A user's preferences, each with its default (new uploads public, 20 uploads a page, pictures stripped). */
export const Preferences = z
  .object({
    /** true: an upload that does not say is public. */
    defaultUploadPrivacy: z.boolean(),
    emailNotifications: z.boolean(),
    theme: z.enum(THEMES),
    uploadsPerPage: z.number().int().min(MIN_PAGE_SIZE).max(MAX_PAGE_SIZE),
    /** How long the links of new uploads that do not say work: "never", or a duration ("7d"). */
    defaultExpiry: z
      .string()
      .max(16)
      .refine(
        isDefaultExpiry,
        'must be "never" or a duration of at most 10 years, such as 30m, 12h, 7d or 1y',
      ),
    /** The view limit of new uploads that do not say; null: none. */
    defaultMaxViews: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(MAX_VIEWS_LIMIT, `must be at most ${MAX_VIEWS_LIMIT}`)
      .nullable(),
    /** true: EXIF, XMP and IPTC (GPS, camera, serial numbers) are removed from new pictures. */
    stripMetadata: z.boolean(),
  })
  .meta({ id: 'Preferences' });
export type Preferences = z.infer<typeof Preferences>;

export const DEFAULT_PREFERENCES: Preferences = {
  defaultUploadPrivacy: true,
  emailNotifications: true,
  theme: 'system',
  uploadsPerPage: 20,
  defaultExpiry: NEVER_EXPIRES,
  defaultMaxViews: null,
  stripMetadata: true,
};

/** Any subset; a field that is not a preference is refused, never ignored. */
export const UpdatePreferencesRequest = Preferences.partial().strict();
export type UpdatePreferencesRequest = z.infer<typeof UpdatePreferencesRequest>;

export const PreferencesResponse = z.object({ preferences: Preferences });
export type PreferencesResponse = z.infer<typeof PreferencesResponse>;
