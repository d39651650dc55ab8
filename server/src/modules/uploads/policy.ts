/** Who may change an upload (reading its bytes is the links module's gate, links/policy.ts). */
import type { UploadRow } from '../../db/schema.ts';
import type { Viewer } from '../../lib/caller.ts';

/** Changing or deleting: the owner, or an administrator. */
export function canManageUpload(
  viewer: Viewer | null,
  upload: Pick<UploadRow, 'user_id'>,
): boolean {
  return viewer !== null && (viewer.id === upload.user_id || viewer.role === 'admin');
}

/** Whose uploads the viewer may change, as a filter: null for anyone's (an administrator). */
export function ownerManagedBy(viewer: Viewer): string | null {
  return viewer.role === 'admin' ? null : viewer.id;
}
