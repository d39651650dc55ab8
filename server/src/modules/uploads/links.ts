/** Public and signed links to uploads and their thumbnails. */
import crypto from 'node:crypto';
import type { UploadRow } from '../../db/schema.ts';
import { hmacHex } from '../../lib/crypto.ts';

/** Signed links for private files opened from the web app (its token is not a cookie). */
export const ACCESS_URL_TTL_MS = 10 * 60 * 1000;
/** Thumbnail links in a listing are stable for an hour, so the browser can cache them. */
const THUMB_SIGNATURE_BUCKET_MS = 60 * 60 * 1000;

export type Links = ReturnType<typeof createLinks>;

export function createLinks(deps: { publicUrl: string; signingKey: Buffer }) {
  const { publicUrl, signingKey } = deps;
  const signature = (uploadId: string, expires: number) =>
    hmacHex(signingKey, `${uploadId}:${expires}`).slice(0, 32);
  const signedQuery = (uploadId: string, expires: number) =>
    `?expires=${expires}&signature=${signature(uploadId, expires)}`;

  return {
    url(row: Pick<UploadRow, 'vanity_url' | 'short_code'>): string {
      return `${publicUrl}/${encodeURIComponent(row.vanity_url ?? row.short_code)}`;
    },

    /** The thumbnail link; signed when the upload is private. */
    thumbnailUrl(row: Pick<UploadRow, 'id' | 'short_code' | 'is_public'>, now: number): string {
      const base = `${publicUrl}/thumb/${row.short_code}`;
      if (row.is_public === 1) return base;
      const expires =
        Math.ceil(now / THUMB_SIGNATURE_BUCKET_MS) * THUMB_SIGNATURE_BUCKET_MS +
        THUMB_SIGNATURE_BUCKET_MS;
      return base + signedQuery(row.id, expires);
    },

    accessUrls(row: Pick<UploadRow, 'id' | 'vanity_url' | 'short_code'>, now: number) {
      const expires = now + ACCESS_URL_TTL_MS;
      const query = signedQuery(row.id, expires);
      return {
        url: `${publicUrl}/${encodeURIComponent(row.vanity_url ?? row.short_code)}${query}`,
        thumbnailUrl: `${publicUrl}/thumb/${row.short_code}${query}`,
        expiresAt: new Date(expires).toISOString(),
      };
    },

    /** Whether a link's expires/signature pair grants access to this upload now. */
    verify(uploadId: string, expires: unknown, sig: unknown, now: number): boolean {
      if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,16}$/.test(expires)) {
        return false;
      }
      const exp = Number(expires);
      if (exp < now) return false;
      const expected = Buffer.from(signature(uploadId, exp));
      const given = Buffer.from(sig);
      return given.length === expected.length && crypto.timingSafeEqual(given, expected);
    },
  };
}
