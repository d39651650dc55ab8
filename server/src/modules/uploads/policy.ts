/** Who may see or change an upload. */
import type { UploadRow, UserRow } from '../../db/schema.ts';

type Viewer = Pick<UserRow, 'id' | 'role'> | null;

/** Public uploads: anyone. Private ones: their owner and administrators, nobody else. */
export function canReadUpload(
  viewer: Viewer,
  upload: Pick<UploadRow, 'user_id' | 'is_public'>,
): boolean {
  if (upload.is_public === 1) return true;
  return viewer !== null && (viewer.id === upload.user_id || viewer.role === 'admin');
}

/** Changing or deleting: the owner, or an administrator. */
export function canManageUpload(viewer: Viewer, upload: Pick<UploadRow, 'user_id'>): boolean {
  return viewer !== null && (viewer.id === upload.user_id || viewer.role === 'admin');
}
