/**
 * Who may read an upload's bytes, and on what terms: the rules of the one gate every route that
 * serves them passes (gate.ts applies them with what needs more than the row).
 */
import type { UploadRow } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Viewer } from '../../lib/caller.ts';
import type { LinkKind, LinkUrls } from './urls.ts';

/** expires and signature from a link's query string, as sent. */
export type SignedQuery = { expires?: unknown; signature?: unknown };

/** What the gate reads of an upload. */
export type GatedRow = Pick<
  UploadRow,
  'id' | 'user_id' | 'is_public' | 'expires_at' | 'max_views' | 'views_used' | 'password_hash'
>;

/**
 * Who the caller is to the upload: its manager (the owner or an administrator, signed in, or
 * anyone with a signed link they made: no password asked, no view spent), a visitor (a public
 * upload), or nobody (a private upload: it answers as if it did not exist).
 */
export function readerOf(input: {
  viewer: Viewer | null;
  upload: Pick<UploadRow, 'id' | 'user_id' | 'is_public'>;
  kind: LinkKind;
  signed: SignedQuery;
  urls: LinkUrls;
  clock: Clock;
}): 'manager' | 'visitor' | null {
  const { viewer, upload, signed } = input;
  if (viewer !== null && (viewer.id === upload.user_id || viewer.role === 'admin')) {
    return 'manager';
  }
  const now = input.clock.now().getTime();
  if (input.urls.verify(input.kind, upload.id, signed.expires, signed.signature, now)) {
    return 'manager';
  }
  return upload.is_public === 1 ? 'visitor' : null;
}

/** Whether the link has expired (for everyone: its upload is about to be deleted). */
export function isExpired(upload: Pick<UploadRow, 'expires_at'>, now: Date): boolean {
  return upload.expires_at !== null && Date.parse(upload.expires_at) <= now.getTime();
}

/**
 * Whether the upload's page may describe it to whoever asks (its embed tags, its oEmbed answer,
 * its title): public and no password, since a crawler never unlocks.
 */
export function isDescribable(upload: Pick<UploadRow, 'is_public' | 'password_hash'>): boolean {
  return upload.is_public === 1 && upload.password_hash === null;
}

/** Whether every view the link allows has been spent. */
export function isUsedUp(upload: Pick<UploadRow, 'max_views' | 'views_used'>): boolean {
  return upload.max_views !== null && Number(upload.views_used) >= Number(upload.max_views);
}
