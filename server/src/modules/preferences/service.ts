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
    defaultExpiry: row.default_expiry,
    defaultMaxViews: row.default_max_views === null ? null : Number(row.default_max_views),
    stripMetadata: row.strip_metadata === 1,
    linkStyle: row.link_style,
    embedTitle: row.embed_title,
    embedSiteName: row.embed_site_name,
    embedColor: row.embed_color,
  };
}

/** How a user's links present themselves in chat apps (its title still to be filled in). */
export type EmbedPreferences = { titleTemplate: string; siteName: string; color: string };

/** What a new upload of a user gets unless it says: its privacy, expiry and view limit. */
export type LinkDefaults = {
  isPublic: boolean;
  /** never, or a duration such as 7d. */
  expiry: string;
  maxViews: number | null;
};

/** What a new upload of a user gets: its link's defaults, and whether a picture is stripped. */
export type UploadDefaults = LinkDefaults & { stripMetadata: boolean };

export function createPreferencesService(deps: { preferences: PreferencesRepository }) {
  const { preferences } = deps;
  const get = async (userId: string) => fromRow(await preferences.find(userId));
  return {
    get: (viewer: Viewer) => get(viewer.id),

    async update(viewer: Viewer, change: UpdatePreferencesRequest): Promise<Preferences> {
      const next = { ...(await get(viewer.id)), ...change };
      next.embedColor = next.embedColor.toLowerCase();
      await preferences.save({
        user_id: viewer.id,
        default_upload_public: next.defaultUploadPrivacy ? 1 : 0,
        email_notifications: next.emailNotifications ? 1 : 0,
        theme: next.theme,
        uploads_per_page: next.uploadsPerPage,
        default_expiry: next.defaultExpiry,
        default_max_views: next.defaultMaxViews,
        strip_metadata: next.stripMetadata ? 1 : 0,
        link_style: next.linkStyle,
        embed_title: next.embedTitle,
        embed_site_name: next.embedSiteName,
        embed_color: next.embedColor,
      });
      return next;
    },

    /** How this user's links present themselves in chat apps (the preview page's tags). */
    async embedSettings(userId: string): Promise<EmbedPreferences> {
      const p = await get(userId);
      return { titleTemplate: p.embedTitle, siteName: p.embedSiteName, color: p.embedColor };
    },

    /** Which link this user's desktop uploaders hand out (read when one is downloaded). */
    linkStyle: async (userId: string) => (await get(userId)).linkStyle,

    /** Whether this user wants notification emails. */
    wantsEmail: async (userId: string) => (await get(userId)).emailNotifications,

    /**
     * What an upload of this user gets for what it does not say, and whether its metadata is
     * stripped (one read for both).
     */
    async uploadDefaults(userId: string): Promise<UploadDefaults> {
      const p = await get(userId);
      return {
        isPublic: p.defaultUploadPrivacy,
        expiry: p.defaultExpiry,
        maxViews: p.defaultMaxViews,
        stripMetadata: p.stripMetadata,
      };
    },
  };
}
