import type { AdminStats, UserStats } from '@upshot/contract';
import type { LinkUrls } from '../links/index.ts';
import type { StatsService } from './service.ts';

export function toUserStatsResponse(
  s: Awaited<ReturnType<StatsService['forUser']>>,
  urls: LinkUrls,
): UserStats {
  return {
    totalUploads: s.totals.uploads,
    totalViews: s.totals.views,
    totalSize: s.totals.bytes,
    mostViewed: s.mostViewed.map((r) => ({
      id: r.id,
      filename: r.original_filename,
      views: Number(r.views),
      shortCode: r.short_code,
      url: urls.url(r),
      isPublic: r.is_public === 1,
      maxViews: r.max_views === null ? null : Number(r.max_views),
      hasPassword: Boolean(r.has_password),
    })),
    fileTypeBreakdown: s.types,
    uploadsPerDay: s.days,
  };
}

export function toAdminStatsResponse(
  s: Awaited<ReturnType<StatsService['forInstance']>>,
): AdminStats {
  return {
    totalUsers: s.totals.users,
    totalUploads: s.totals.uploads,
    totalViews: s.totals.views,
    totalStorage: s.totals.bytes,
    mostActiveUsers: s.mostActive.map((u) => ({
      userId: u.id,
      username: u.username,
      uploadCount: Number(u.upload_count),
    })),
    recentActivity: s.recent.map((r) => ({
      id: r.id,
      filename: r.original_filename,
      username: r.username,
      createdAt: r.created_at,
    })),
    uploadsPerDay: s.days,
  };
}
