import { z } from 'zod';
import {
  APP_NAME,
  APP_THEME_COLOR,
  DEFAULT_EMBED_TITLE,
  EMBED_PLACEHOLDERS,
  EMBED_SITE_NAME_MAX,
  EMBED_TITLE_MAX,
  LINK_STYLES,
  isDefaultExpiry,
  MAX_PAGE_SIZE,
  MAX_VIEWS_LIMIT,
  MIN_PAGE_SIZE,
  NEVER_EXPIRES,
  THEMES,
} from './constants.ts';
import { text } from './text.ts';

const PLACEHOLDER = /\{([^{}]*)\}/g;
/** Whether every {name} in a title template is one of EMBED_PLACEHOLDERS. */
const knownPlaceholders = (template: string) =>
  [...template.matchAll(PLACEHOLDER)].every(([, name]) =>
    (EMBED_PLACEHOLDERS as readonly string[]).includes(name!),
  );

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
    /**
     * Which link the clients hand out (Copy URL, the clipboard after an upload, ShareX, the
     * scripts): the file itself (`raw`), or its preview page (`preview`).
     */
    linkStyle: z.enum(LINK_STYLES),
    /** The title of this user's links in chat apps: {filename}, {size}, {date}, {username}. */
    embedTitle: text(EMBED_TITLE_MAX)
      .trim()
      .min(1, 'must not be empty')
      .refine(knownPlaceholders, 'may name only {filename}, {size}, {date} and {username}'),
    /** The site name chat apps show above it. */
    embedSiteName: text(EMBED_SITE_NAME_MAX).trim().min(1, 'must not be empty'),
    /** The colour of the embed's edge (theme-color), as #rrggbb (kept in lower case). */
    embedColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb'),
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
  linkStyle: 'raw',
  embedTitle: DEFAULT_EMBED_TITLE,
  embedSiteName: APP_NAME,
  embedColor: APP_THEME_COLOR,
};

/** Any subset; a field that is not a preference is refused, never ignored. */
export const UpdatePreferencesRequest = Preferences.partial().strict();
export type UpdatePreferencesRequest = z.infer<typeof UpdatePreferencesRequest>;

export const PreferencesResponse = z.object({ preferences: Preferences });
export type PreferencesResponse = z.infer<typeof PreferencesResponse>;
