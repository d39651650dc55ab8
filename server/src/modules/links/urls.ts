/**
 * The URLs of uploads: public, signed (a private file or thumbnail), and deletion links; and the
 * cookies a link sets: a password's unlock and a view's grant.
 */
import crypto from 'node:crypto';
import { ACCESS_URL_DEFAULT_TTL_SECONDS } from '@upshot/contract';
import type { UploadRow } from '../../db/schema.ts';
import { hmacHex } from '../../lib/crypto.ts';

/** Signed links for private files opened from the web app (its token is not a cookie). */
export const ACCESS_URL_TTL_MS = ACCESS_URL_DEFAULT_TTL_SECONDS * 1000;
/** Thumbnail links in a listing are stable for an hour, so the browser can cache them. */
const THUMB_SIGNATURE_BUCKET_MS = 60 * 60 * 1000;
/** How long a right password opens its link in that browser. */
export const UNLOCK_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long the browser that spent a view of a view-limited link may go on reading it (ranges,
 * seeking, a reload): one download, watched through. A used-up upload is deleted after it.
 */
export const VIEW_GRANT_TTL_MS = 3 * 60 * 60 * 1000;

/** A cookie to set: its name, value and life. */
export type LinkCookie = { name: string; value: string; maxAgeSeconds: number };

/** The unlock cookie's name for an upload (one per upload: it opens that one alone). */
export const unlockCookieName = (uploadId: string) => `upshot_unlock_${uploadId}`;
/** The view grant's cookie name for an upload. */
export const grantCookieName = (uploadId: string) => `upshot_view_${uploadId}`;

/** Anyone may read it: public, without a password or a view limit (an expiry aside). */
export function isOpenToAll(
  row: Pick<UploadRow, 'is_public' | 'max_views' | 'password_hash'>,
): boolean {
  return row.is_public === 1 && row.max_views === null && row.password_hash === null;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** What a signature opens: the file, or only its thumbnail. One never opens the other. */
export type LinkKind = 'file' | 'thumbnail';

export type LinkUrls = ReturnType<typeof createLinkUrls>;

export function createLinkUrls(deps: {
  /** The app's address: deletion links (their page is the app's). */
  publicUrl: string;
  /** Where user content is served (CONTENT_URL, else PUBLIC_URL): links, thumbnails, pages. */
  contentUrl: string;
  signingKey: Buffer;
}) {
  const { publicUrl, contentUrl } = deps;
  // Imported once: a raw key makes every HMAC import it again (about 25 µs against 4 µs).
  const signingKey = crypto.createSecretKey(deps.signingKey);
  const signature = (kind: LinkKind, uploadId: string, expires: number) =>
    hmacHex(signingKey, `${kind}:${uploadId}:${expires}`).slice(0, 32);
  // Its own message prefix: a deletion signature never opens the file, nor the other way round.
  const deletionSignature = (uploadId: string) =>
    hmacHex(signingKey, `delete:${uploadId}`).slice(0, 32);
  const signedQuery = (kind: LinkKind, uploadId: string, expires: number) =>
    `?expires=${expires}&signature=${signature(kind, uploadId, expires)}`;
  const fileUrl = (row: Pick<UploadRow, 'vanity_url' | 'short_code'>) =>
    `${contentUrl}/${encodeURIComponent(row.vanity_url ?? row.short_code)}`;
  const pageUrl = (row: Pick<UploadRow, 'vanity_url' | 'short_code'>) =>
    `${contentUrl}/v/${encodeURIComponent(row.vanity_url ?? row.short_code)}`;
  const thumbBase = (row: Pick<UploadRow, 'short_code'>) => `${contentUrl}/thumb/${row.short_code}`;

  /** A cookie value `<expires>.<mac of message and expires>`, valid until expires. */
  const cookieValue = (message: string, expires: number) =>
    `${expires}.${hmacHex(signingKey, `${message}:${expires}`).slice(0, 32)}`;
  const cookieValid = (message: string, value: unknown, now: number) => {
    if (typeof value !== 'string') return false;
    const match = /^(\d{1,16})\.([0-9a-f]{32})$/.exec(value);
    if (!match || Number(match[1]) < now) return false;
    return safeEqual(value, cookieValue(message, Number(match[1])));
  };
  // Bound to the password's hash: a new password (its salt is new, even for the same words) or
  // none makes every earlier cookie worthless; an upload's id is never another's.
  const unlockMessage = (row: Pick<UploadRow, 'id' | 'password_hash'>) =>
    `unlock:${row.id}:${row.password_hash ?? ''}`;
  const grantMessage = (uploadId: string) => `view:${uploadId}`;

  return {
    publicUrl,
    contentUrl,
    url: fileUrl,

    /** The upload's preview page, by the same slug as its link. */
    previewUrl: pageUrl,

    /**
     * The thumbnail link, signed for an hour or two unless anyone may see it (a private upload,
     * or one behind a password or a view limit, shows its owner a thumbnail nobody else gets).
     */
    thumbnailUrl(
      row: Pick<UploadRow, 'id' | 'short_code' | 'is_public' | 'max_views' | 'password_hash'>,
      now: number,
    ): string {
      if (isOpenToAll(row)) return thumbBase(row);
      const expires =
        Math.ceil(now / THUMB_SIGNATURE_BUCKET_MS) * THUMB_SIGNATURE_BUCKET_MS +
        THUMB_SIGNATURE_BUCKET_MS;
      return thumbBase(row) + signedQuery('thumbnail', row.id, expires);
    },

    /**
     * Signed links to the file, its preview page and its thumbnail, valid ttlMs, and never past
     * the link's own expiry: a signature cannot promise what the link will no longer do. The
     * page takes the file's signature (it shows that file, through the same gate).
     */
    accessUrls(
      row: Pick<UploadRow, 'id' | 'vanity_url' | 'short_code' | 'expires_at'>,
      now: number,
      hasThumbnail: boolean,
      ttlMs = ACCESS_URL_TTL_MS,
    ) {
      const linkEnds = row.expires_at === null ? Infinity : Date.parse(row.expires_at);
      const expires = Math.max(now, Math.min(now + ttlMs, linkEnds));
      const fileQuery = signedQuery('file', row.id, expires);
      return {
        url: fileUrl(row) + fileQuery,
        previewUrl: pageUrl(row) + fileQuery,
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
      return typeof sig === 'string' && safeEqual(sig, deletionSignature(uploadId));
    },

    /** The cookie a right password sets: it opens this upload, with this password, for a day. */
    unlockCookie(row: Pick<UploadRow, 'id' | 'password_hash'>, now: number): LinkCookie {
      return {
        name: unlockCookieName(row.id),
        value: cookieValue(unlockMessage(row), now + UNLOCK_TTL_MS),
        maxAgeSeconds: UNLOCK_TTL_MS / 1000,
      };
    },

    /** Whether an unlock cookie opens this upload with its password as it is now. */
    verifyUnlock(row: Pick<UploadRow, 'id' | 'password_hash'>, value: unknown, now: number) {
      return row.password_hash !== null && cookieValid(unlockMessage(row), value, now);
    },

    /** The cookie a spent view sets: the same browser goes on reading the file without another. */
    viewGrant(uploadId: string, now: number): LinkCookie {
      return {
        name: grantCookieName(uploadId),
        value: cookieValue(grantMessage(uploadId), now + VIEW_GRANT_TTL_MS),
        maxAgeSeconds: VIEW_GRANT_TTL_MS / 1000,
      };
    },

    verifyGrant(uploadId: string, value: unknown, now: number): boolean {
      return cookieValid(grantMessage(uploadId), value, now);
    },

    /** Whether a link's expires/signature pair opens this kind of resource of this upload now. */
    verify(kind: LinkKind, uploadId: string, expires: unknown, sig: unknown, now: number): boolean {
      if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,16}$/.test(expires)) {
        return false;
      }
      const exp = Number(expires);
      return exp >= now && safeEqual(sig, signature(kind, uploadId, exp));
    },
  };
}
