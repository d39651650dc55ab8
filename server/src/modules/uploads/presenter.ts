import type { Upload } from '@upshot/contract';
import type { UploadRow } from '../../db/schema.ts';
import type { Links } from './links.ts';

/** Whether the upload has, or can still get, a thumbnail. */
export function hasThumbnail(row: Pick<UploadRow, 'thumbnail_status'>): boolean {
  return row.thumbnail_status === 'ready' || row.thumbnail_status === 'pending';
}

export function toUploadResponse(row: UploadRow, links: Links, now: number): Upload {
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
    tags: [],
    url: links.url(row),
    thumbnailUrl: hasThumbnail(row) ? links.thumbnailUrl(row, now) : null,
  };
}
