// The link Upshot hands out for an upload, as the user's Link style says: the file itself, or
// its preview page. A private file's plain link answers 404 to everyone: its link here is one
// signed for 7 days (the page takes the file's signature).
import type { LinkStyle, UploadResponse } from '@upshot/contract';
import { ACCESS_URL_MAX_TTL_SECONDS } from '@upshot/contract/constants';
import { uploadsApi } from './api.ts';

export type OpeningLink = { url: string; urlExpiresAt?: string };

/** The link of that style among an upload's (or a signed answer's): `url` or `previewUrl`. */
export const styledLink = (links: { url: string; previewUrl: string }, style: LinkStyle) =>
  style === 'preview' ? links.previewUrl : links.url;

/** A link signed for 7 days, of that style, and until when it works. */
export async function signedLink(
  uploadId: string,
  style: LinkStyle,
): Promise<Required<OpeningLink>> {
  const signed = await uploadsApi.accessUrl(uploadId, ACCESS_URL_MAX_TTL_SECONDS);
  return { url: styledLink(signed, style), urlExpiresAt: signed.expiresAt };
}

/**
 * The link a new upload is handed out by, as the upload dialog and New text copy it: its own
 * for a public upload, a signed one for a private one (null when it cannot be signed: no link
 * is better than one that answers 404).
 */
export async function openingLink(
  { upload }: UploadResponse,
  style: LinkStyle,
): Promise<OpeningLink | null> {
  if (upload.isPublic) return { url: styledLink(upload, style) };
  try {
    return await signedLink(upload.id, style);
  } catch {
    return null;
  }
}
