/**
 * The rules of an upload's link beside its address: privacy, expiry, view limit and password,
 * as asked at upload (the owner's preferences fill in what is not said) or changed later.
 */
import { EXPIRES_FORMAT, MAX_EXPIRY_MS, parseExpires } from '@upshot/contract';
import type { UploadRow } from '../../db/schema.ts';
import { ValidationError } from '../../errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { LinkDefaults } from '../preferences/index.ts';

/** What an upload asks for its link; undefined: as the owner's preferences say. */
export type LinkAsk = {
  isPublic?: boolean;
  /** never, a duration (from when the upload is made) or an ISO date-time. */
  expires?: string;
  /** null: no limit. */
  maxViews?: number | null;
  password?: string;
};

/** A new upload's link, decided and checked; its expiry is resolved when the upload is made. */
export type NewLink = {
  isPublic: boolean;
  expires: string;
  maxViews: number | null;
  passwordHash: string | null;
};

/** The link columns of an upload. */
export type LinkColumns = Pick<
  UploadRow,
  'is_public' | 'expires_at' | 'max_views' | 'password_hash'
>;

/**
 * When a link whose expiry was asked as `spec` stops working, counted from `now` for a
 * duration; null for never. The spec was checked when asked.
 */
export function resolveExpiry(spec: string, now: Date): string | null {
  const parsed = parseExpires(spec);
  if (!parsed) throw new ValidationError(`expires: ${EXPIRES_FORMAT}`);
  if ('never' in parsed) return null;
  const at = 'durationMs' in parsed ? new Date(now.getTime() + parsed.durationMs) : parsed.at;
  return at.toISOString();
}

/** Refuses an expiry in the past, or more than 10 years away, naming the field. */
export function checkExpiry(at: string | null, now: Date, field: string): void {
  if (at === null) return;
  const ms = Date.parse(at) - now.getTime();
  if (ms <= 0) throw new ValidationError(`${field}: must be in the future`);
  if (ms > MAX_EXPIRY_MS) throw new ValidationError(`${field}: must be at most 10 years away`);
}

/** Decides a new upload's link from what it asks and the owner's defaults, checking each. */
export async function decideLink(
  ask: LinkAsk,
  defaults: LinkDefaults,
  now: Date,
): Promise<NewLink> {
  const expires = ask.expires ?? defaults.expiry;
  // The field the owner sent, or their preference, is what is wrong.
  checkExpiry(
    resolveExpiry(expires, now),
    now,
    ask.expires === undefined ? 'defaultExpiry' : 'expires',
  );
  return {
    isPublic: ask.isPublic ?? defaults.isPublic,
    expires,
    maxViews: ask.maxViews !== undefined ? ask.maxViews : defaults.maxViews,
    passwordHash: ask.password !== undefined ? await hashPassword(ask.password) : null,
  };
}

/** The columns of a new upload's link, its expiry counted from `now`. */
export function linkColumns(link: NewLink, now: Date): LinkColumns {
  return {
    is_public: link.isPublic ? 1 : 0,
    expires_at: resolveExpiry(link.expires, now),
    max_views: link.maxViews,
    password_hash: link.passwordHash,
  };
}

/** A change of an upload's link (PATCH): undefined leaves a setting as it is. */
export type LinkChange = {
  isPublic?: boolean;
  expiresAt?: string | null;
  maxViews?: number | null;
  password?: string | null;
};

/** The columns a change writes (checked, the password hashed); null when it changes none. */
export async function changedColumns(
  change: LinkChange,
  now: Date,
): Promise<Partial<LinkColumns> | null> {
  const columns: Partial<LinkColumns> = {};
  if (change.isPublic !== undefined) columns.is_public = change.isPublic ? 1 : 0;
  if (change.expiresAt !== undefined) {
    const at = change.expiresAt === null ? null : new Date(change.expiresAt).toISOString();
    checkExpiry(at, now, 'expiresAt');
    columns.expires_at = at;
  }
  if (change.maxViews !== undefined) columns.max_views = change.maxViews;
  if (change.password !== undefined) {
    columns.password_hash = change.password === null ? null : await hashPassword(change.password);
  }
  return Object.keys(columns).length > 0 ? columns : null;
}

/**
 * Refuses a view limit at or below the views already used (the link would be used up, and its
 * upload deleted): to stop a link, make it private or let it expire.
 */
export function checkViewLimit(
  upload: Pick<UploadRow, 'max_views' | 'views_used'>,
  maxViews: number | null | undefined,
): void {
  if (maxViews == null || upload.max_views === null) return;
  const used = Number(upload.views_used);
  if (maxViews <= used) {
    throw new ValidationError(
      `maxViews: must be more than the ${used} view${used === 1 ? '' : 's'} already used (to stop the link, make it private)`,
    );
  }
}

/** What an administrator's change to another's link says in the audit log (no password). */
export function auditedChange(change: LinkChange): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  if (change.isPublic !== undefined) details.isPublic = change.isPublic;
  if (change.expiresAt !== undefined) details.expiresAt = change.expiresAt;
  if (change.maxViews !== undefined) details.maxViews = change.maxViews;
  if (change.password !== undefined)
    details.password = change.password === null ? 'removed' : 'set';
  return details;
}
