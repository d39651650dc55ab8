/** The URLs of uploads: public, signed (a private file or thumbnail), and deletion links. */
import crypto from 'node:crypto';
import type { UploadRow } from '../../db/schema.ts';
import { hmacHex } from '../../lib/crypto.ts';

/** Signed links for private files opened from the web app (its token is not a cookie). */
export const ACCESS_URL_TTL_MS = 10 * 60 * 1000;
/** Thumbnail links in a listing are stable for an hour, so the browser can cache them. */
const THUMB_SIGNATURE_BUCKET_MS = 60 * 60 * 1000;

/** What a signature opens: the file, or only its thumbnail. One never opens the other. */
export type LinkKind = 'file' | 'thumbnail';

export type LinkUrls = ReturnType<typeof createLinkUrls>;

export function createLinkUrls(deps: { publicUrl: string; signingKey: Buffer }) {
  const { publicUrl, signingKey } = deps;
  const signature = (kind: LinkKind, uploadId: string, expires: number) =>
    hmacHex(signingKey, `${kind}:${uploadId}:${expires}`).slice(0, 32);
  // Its own message prefix: a deletion signature never opens the file, nor the other way round.
  const deletionSignature = (uploadId: string) =>
    hmacHex(signingKey, `delete:${uploadId}`).slice(0, 32);
  const signedQuery = (kind: LinkKind, uploadId: string, expires: number) =>
    `?expires=${expires}&signature=${signature(kind, uploadId, expires)}`;
  const fileUrl = (row: Pick<UploadRow, 'vanity_url' | 'short_code'>) =>
    `${publicUrl}/${encodeURIComponent(row.vanity_url ?? row.short_code)}`;
  const thumbBase = (row: Pick<UploadRow, 'short_code'>) => `${publicUrl}/thumb/${row.short_code}`;

  return {
    publicUrl,
    url: fileUrl,

    /** The thumbnail link, signed for an hour or two when the upload is private. */
    thumbnailUrl(row: Pick<UploadRow, 'id' | 'short_code' | 'is_public'>, now: number): string {
      if (row.is_public === 1) return thumbBase(row);
      const expires =
        Math.ceil(now / THUMB_SIGNATURE_BUCKET_MS) * THUMB_SIGNATURE_BUCKET_MS +
        THUMB_SIGNATURE_BUCKET_MS;
      return thumbBase(row) + signedQuery('thumbnail', row.id, expires);
    },

    /** Signed links to the file and its thumbnail, valid ACCESS_URL_TTL_MS. */
    accessUrls(
      row: Pick<UploadRow, 'id' | 'vanity_url' | 'short_code'>,
      now: number,
      hasThumbnail: boolean,
    ) {
      const expires = now + ACCESS_URL_TTL_MS;
      return {
        url: fileUrl(row) + signedQuery('file', row.id, expires),
        thumbnailUrl: hasThumbnail
          ? thumbBase(row) + signedQuery('thumbnail', row.id, expires)
          : null,
        expiresAt: new Date(expires).toISOString(),
      };
    },

    /**
     * The link that deletes this upload without signing in (ShareX's history, the scripts). It
     * does not expire: it opens a confirmation page, and only its POST deletes.
     */
    deletionUrl(row: Pick<UploadRow, 'id'>): string {
      return `${publicUrl}/d/${encodeURIComponent(row.id)}?signature=${deletionSignature(row.id)}`;
    },

    /** Whether a deletion link's signature is this upload's. */
    verifyDeletion(uploadId: string, sig: unknown): boolean {
      if (typeof sig !== 'string') return false;
      const expected = Buffer.from(deletionSignature(uploadId));
      const given = Buffer.from(sig);
      return given.length === expected.length && crypto.timingSafeEqual(given, expected);
    },

    /** Whether a link's expires/signature pair opens this kind of resource of this upload now. */
    verify(kind: LinkKind, uploadId: string, expires: unknown, sig: unknown, now: number): boolean {
      if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,16}$/.test(expires)) {
        return false;
      }
      const exp = Number(expires);
      if (exp < now) return false;
      const expected = Buffer.from(signature(kind, uploadId, exp));
      const given = Buffer.from(sig);
      return given.length === expected.length && crypto.timingSafeEqual(given, expected);
    },
  };
}
