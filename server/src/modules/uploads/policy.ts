/** Who may see or change an upload. */
import type { UploadRow } from '../../db/schema.ts';
import type { Viewer } from '../users/index.ts';

/** Public uploads: anyone. Private ones: their owner and administrators, nobody else. */
export function canReadUpload(
  viewer: Viewer | null,
  upload: Pick<UploadRow, 'user_id' | 'is_public'>,
): boolean {
  if (upload.is_public === 1) return true;
  return viewer !== null && (viewer.id === upload.user_id || viewer.role === 'admin');
}

/** Changing or deleting: the owner, or an administrator. */
export function canManageUpload(
  viewer: Viewer | null,
  upload: Pick<UploadRow, 'user_id'>,
): boolean {
  return viewer !== null && (viewer.id === upload.user_id || viewer.role === 'admin');
}
