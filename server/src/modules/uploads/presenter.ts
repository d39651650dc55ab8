import type { Tag, Upload, UploadResponse } from '@upshot/contract';
import type { UploadRow } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { compareNames } from '../../lib/names.ts';
import type { LinkUrls } from '../links/index.ts';

/** Whether the upload has, or can still get, a thumbnail. */
export function hasThumbnail(row: Pick<UploadRow, 'thumbnail_status'>): boolean {
  return row.thumbnail_status === 'ready' || row.thumbnail_status === 'pending';
}

export function toUploadResponse(row: UploadRow, tags: Tag[], urls: LinkUrls, now: number): Upload {
  return {
    id: row.id,
    originalFilename: row.original_filename,
    mimeType: row.mime_type,
    size: Number(row.size),
    views: Number(row.views),
    shortCode: row.short_code,
    vanityUrl: row.vanity_url,
    isPublic: row.is_public === 1,
    createdAt: row.created_at,
    tags,
    url: urls.url(row),
    previewUrl: urls.previewUrl(row),
    thumbnailUrl: hasThumbnail(row) ? urls.thumbnailUrl(row, now) : null,
    expiresAt: row.expires_at,
    maxViews: row.max_views === null ? null : Number(row.max_views),
    viewsLeft:
      row.max_views === null ? null : Math.max(0, Number(row.max_views) - Number(row.views_used)),
    hasPassword: row.password_hash !== null,
  };
}

/** Presents uploads with their tags (read in one query for a whole page). */
export type UploadPresenter = {
  one: (row: UploadRow) => Promise<Upload>;
  many: (rows: UploadRow[]) => Promise<Upload[]>;
  /** The answer to an upload (simple or chunked): its link, the upload and its deletion link. */
  created: (row: UploadRow) => Promise<UploadResponse>;
};

export function createUploadPresenter(deps: {
  tagsOf: (uploadIds: string[]) => Promise<Map<string, Tag[]>>;
  urls: LinkUrls;
  clock: Clock;
}): UploadPresenter {
  const many = async (rows: UploadRow[]) => {
    const tags = await deps.tagsOf(rows.map((r) => r.id));
    const now = deps.clock.now().getTime();
    return rows.map((r) => {
      const own = (tags.get(r.id) ?? []).sort((a, b) => compareNames(a.name, b.name));
      return toUploadResponse(r, own, deps.urls, now);
    });
  };
  const one = async (row: UploadRow) => (await many([row]))[0]!;
  const created = async (row: UploadRow): Promise<UploadResponse> => {
    const upload = await one(row);
    return {
      url: upload.url,
      previewUrl: upload.previewUrl,
      message: 'File uploaded successfully',
      upload,
      deletionUrl: deps.urls.deletionUrl(row),
    };
  };
  return { many, one, created };
}
