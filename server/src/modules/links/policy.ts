/** Who may read an upload's bytes: the one gate every route that serves them passes. */
import type { UploadRow } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Viewer } from '../../lib/caller.ts';
import type { LinkKind, LinkUrls } from './urls.ts';

/** expires and signature from a link's query string, as sent. */
export type SignedQuery = { expires?: unknown; signature?: unknown };

/** Public uploads: anyone. Private ones: their owner and administrators, nobody else. */
export function canReadUpload(
  viewer: Viewer | null,
  upload: Pick<UploadRow, 'user_id' | 'is_public'>,
): boolean {
  if (upload.is_public === 1) return true;
  return viewer !== null && (viewer.id === upload.user_id || viewer.role === 'admin');
}

/** Whether this viewer, or the link's signature for this kind of resource, may read it now. */
export function mayRead(input: {
  viewer: Viewer | null;
  upload: Pick<UploadRow, 'id' | 'user_id' | 'is_public'>;
  kind: LinkKind;
  signed: SignedQuery;
  urls: LinkUrls;
  clock: Clock;
}): boolean {
  const { upload, signed } = input;
  if (canReadUpload(input.viewer, upload)) return true;
  const now = input.clock.now().getTime();
  return input.urls.verify(input.kind, upload.id, signed.expires, signed.signature, now);
}
