// What a card says about its link's limits: how long it works and how many views it has left.
import type { Upload } from '@upshot/contract';
import { timeSpan } from '../../lib/link-options.ts';

export type LinkLimit = { text: string; /** The link no longer opens (410). */ spent: boolean };

/** "Expires in 3 days", or "Expired"; null for a link that never expires. */
export function expiryStatus(expiresAt: string | null, now: number): LinkLimit | null {
  if (expiresAt === null) return null;
  const left = new Date(expiresAt).getTime() - now;
  if (Number.isNaN(left)) return null;
  if (left <= 0) return { text: 'Expired', spent: true };
  return { text: `Expires in ${timeSpan(left)}`, spent: false };
}

/** "2 of 5 views left", or "No views left"; null for a link without a limit. */
export function viewsStatus({
  maxViews,
  viewsLeft,
}: Pick<Upload, 'maxViews' | 'viewsLeft'>): LinkLimit | null {
  if (maxViews === null) return null;
  const left = Math.max(0, viewsLeft ?? maxViews);
  if (left === 0) return { text: 'No views left', spent: true };
  return { text: `${left} of ${maxViews} ${maxViews === 1 ? 'view' : 'views'} left`, spent: false };
}

/**
 * Whether opening the file should go through a signed link rather than its public one: a
 * private file opens for nobody else, and the owner's visit must neither spend a view nor stop
 * at the password form.
 */
export function opensSigned(
  upload: Pick<Upload, 'isPublic'> & Partial<Pick<Upload, 'maxViews' | 'hasPassword'>>,
): boolean {
  return !upload.isPublic || (upload.maxViews ?? null) !== null || upload.hasPassword === true;
}
