// The link that opens a new upload, as the upload dialog and New text copy it. A private file's
// plain link answers 404 to everyone: its link here is one signed for 7 days.
import type { UploadResponse } from '@upshot/contract';
import { ACCESS_URL_MAX_TTL_SECONDS } from '@upshot/contract/constants';
import { uploadsApi } from './api.ts';

export type OpeningLink = { url: string; urlExpiresAt?: string };

/**
 * Its own link for a public upload, a signed one for a private one (null when it cannot be
 * signed: no link is better than one that answers 404).
 */
export async function openingLink({ url, upload }: UploadResponse): Promise<OpeningLink | null> {
  if (upload.isPublic) return { url };
  try {
    const signed = await uploadsApi.accessUrl(upload.id, ACCESS_URL_MAX_TTL_SECONDS);
    return { url: signed.url, urlExpiresAt: signed.expiresAt };
  } catch {
    return null;
  }
}
