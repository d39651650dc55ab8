import { z } from 'zod';

/** One UTC day (YYYY-MM-DD) of the uploads-per-day series: uploads made that day that still exist. */
export const DayCount = z.object({
  date: z.string(),
  count: z.number().int(),
  bytes: z.number().int(),
});
export type DayCount = z.infer<typeof DayCount>;

/** A file-type group of the upload filter (images, videos, documents, archives) or other. */
export const TypeCount = z.object({ type: z.string(), count: z.number().int() });
export type TypeCount = z.infer<typeof TypeCount>;

export const UserStats = z
  .object({
    totalUploads: z.number().int(),
    totalViews: z.number().int(),
    totalSize: z.number().int(),
    /** The five most viewed uploads with at least one view. */
    mostViewed: z.array(
      z.object({
        id: z.string(),
        filename: z.string(),
        views: z.number().int(),
        shortCode: z.string(),
        /**
         * Its public link; a private upload, or one with a view limit or a password, opens for
         * its owner through a signed access URL (no view spent, no password form).
         */
        url: z.string(),
        isPublic: z.boolean(),
        maxViews: z.number().int().nullable(),
        hasPassword: z.boolean(),
      }),
    ),
    fileTypeBreakdown: z.array(TypeCount),
    /** The last 30 days, oldest first, today last; days without uploads included. */
    uploadsPerDay: z.array(DayCount),
  })
  .meta({ id: 'UserStats' });
export type UserStats = z.infer<typeof UserStats>;

export const AdminStats = z
  .object({
    totalUsers: z.number().int(),
    totalUploads: z.number().int(),
    totalViews: z.number().int(),
    totalStorage: z.number().int(),
    /** The five users with the most uploads. */
    mostActiveUsers: z.array(
      z.object({ userId: z.string(), username: z.string(), uploadCount: z.number().int() }),
    ),
    /** The ten latest uploads of everyone. */
    recentActivity: z.array(
      z.object({
        id: z.string(),
        filename: z.string(),
        username: z.string(),
        createdAt: z.string(),
      }),
    ),
    uploadsPerDay: z.array(DayCount),
  })
  .meta({ id: 'AdminStats' });
export type AdminStats = z.infer<typeof AdminStats>;
