/**
 * The one gate every route that serves an upload's bytes passes: policy.ts's rules applied with
 * what they need beside the row (a password checked within the limits on wrong ones, the
 * request's cookies), and the password form's unlock.
 */
import crypto from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import { hmacHex } from '../../lib/crypto.ts';
import type { Actor } from '../../lib/caller.ts';
import { isExpired, isUsedUp, readerOf, type GatedRow, type SignedQuery } from './policy.ts';
import {
  grantCookieName,
  unlockCookieName,
  type LinkCookie,
  type LinkKind,
  type LinkUrls,
} from './urls.ts';

/** Wrong link passwords: from one address (any link), and for one link (any address). */
export const LINK_PASSWORD_LIMITS = {
  address: { max: 10, windowMs: 60_000 },
  link: { max: 50, windowMs: 15 * 60_000 },
} as const;

/** How many right passwords an instance keeps in memory; past it, the memory starts again. */
const RIGHT_PASSWORDS_KEPT = 10_000;

type Limit = { max: number; windowMs: number };
/** Attempts counted in fixed windows, kept in the database (the auth module's rate limits). */
export type AttemptLimits = {
  /** Seconds until the key's window ends when it is at its limit, else 0 (counts nothing). */
  attemptWait: (key: string, limit: Limit) => Promise<number>;
  /** Counts one attempt; `wait` > 0 (seconds) when past the limit; `giveBack` uncounts it. */
  takeAttempt: (
    key: string,
    limit: Limit,
  ) => Promise<{ wait: number; giveBack: () => Promise<void> }>;
};

/** What the gate reads of a request. */
export type GateRequest = {
  viewer: Actor | null;
  /** The client's address (for the limit on wrong passwords). */
  ip: string;
  /** The request's cookies (a link's unlock and view grant). */
  cookies: Readonly<Record<string, string | undefined>>;
  /** X-Upshot-Password: a script's password, instead of the unlock cookie. */
  password?: string;
  signed: SignedQuery;
};

/** Why the gate turned a request away (other than as a link that does not exist). */
export type Refusal =
  | { kind: 'gone'; reason: 'expired' | 'used-up' }
  /** A password is needed (`wrong`: one was sent, and it was not the link's). */
  | { kind: 'locked'; wrong: boolean }
  | { kind: 'too-many'; retryAfterSeconds: number };

export type UnlockAnswer =
  | { kind: 'not-found' }
  | Refusal
  /** Unlocked, or nothing to unlock: back to the link (with the cookie, when one was earned). */
  | { kind: 'unlocked'; cookie: LinkCookie | null };

/** Through the gate: as the upload's manager, or as a visitor holding a view's grant or not. */
type Pass = { kind: 'pass'; visitor: boolean; granted: boolean };

export function createGate(deps: {
  urls: LinkUrls;
  clock: Clock;
  attempts: AttemptLimits;
  /** Checks a password against its argon2id hash. */
  verifyPassword: (hash: string, password: string) => Promise<boolean>;
}) {
  const { urls, clock } = deps;
  /** Passwords found right, on this instance: a hash and a password always check the same. */
  const rightPasswords = new Set<string>();
  /** Checks under way: the same password sent again meanwhile waits for the same answer. */
  const checking = new Map<string, Promise<'right' | 'wrong' | number>>();
  const memoKey = crypto.randomBytes(32);

  /**
   * Checks a password within the limits, per address and per link: 'right', 'wrong', or the
   * seconds to wait before another may be tried. Each attempt holds its place in both counts
   * while its hash is checked, so attempts sent together cannot all slip under a limit; a right
   * one, or one refused, gives it back.
   */
  async function limitedCheck(
    uploadId: string,
    hash: string,
    password: string,
    ip: string,
  ): Promise<'right' | 'wrong' | number> {
    const attempts = await Promise.all([
      deps.attempts.takeAttempt(`link-password:ip:${ip}`, LINK_PASSWORD_LIMITS.address),
      deps.attempts.takeAttempt(`link-password:upload:${uploadId}`, LINK_PASSWORD_LIMITS.link),
    ]);
    const giveBack = () => Promise.all(attempts.map((a) => a.giveBack()));
    const wait = Math.max(...attempts.map((a) => a.wait));
    if (wait > 0) {
      await giveBack();
      return wait;
    }
    if (!(await deps.verifyPassword(hash, password))) return 'wrong';
    await giveBack();
    return 'right';
  }

  /**
   * A password sent for a link. From an address or for a link at its limit, nothing is checked
   * (a password known right included: the limit would otherwise be an oracle). One known right
   * is right at once (a script sends it with every download: no argon2 each time, no place
   * taken), and the same one sent again while it is checked shares that check.
   */
  async function checkPassword(
    row: GatedRow,
    hash: string,
    password: string,
    ip: string,
  ): Promise<'right' | 'wrong' | number> {
    const waits = await Promise.all([
      deps.attempts.attemptWait(`link-password:ip:${ip}`, LINK_PASSWORD_LIMITS.address),
      deps.attempts.attemptWait(`link-password:upload:${row.id}`, LINK_PASSWORD_LIMITS.link),
    ]);
    const wait = Math.max(...waits);
    if (wait > 0) return wait;
    const key = `${hash}\0${hmacHex(memoKey, password)}`;
    if (rightPasswords.has(key)) return 'right';
    let check = checking.get(key);
    if (!check) {
      check = limitedCheck(row.id, hash, password, ip).finally(() => checking.delete(key));
      checking.set(key, check);
    }
    const result = await check;
    if (result === 'right') {
      if (rightPasswords.size >= RIGHT_PASSWORDS_KEPT) rightPasswords.clear();
      rightPasswords.add(key);
    }
    return result;
  }

  /**
   * Who the caller is to this upload, unless it is turned away first: a private upload is not
   * found for anyone but its managers (before anything else, so nothing sent reveals it), an
   * expired one is gone for everyone.
   */
  function admit(
    row: GatedRow,
    req: GateRequest,
    kind: LinkKind,
  ): 'manager' | 'visitor' | { kind: 'not-found' } | Refusal {
    const reader = readerOf({
      viewer: req.viewer,
      upload: row,
      kind,
      signed: req.signed,
      urls,
      clock,
    });
    if (!reader) return { kind: 'not-found' };
    if (isExpired(row, clock.now())) return { kind: 'gone', reason: 'expired' };
    return reader;
  }

  /**
   * The one gate: who may read this upload's bytes (or a thumbnail of them) now. Past admit(),
   * a used-up link is gone for visitors but the browser that spent its last view (its grant);
   * a password asks visitors for its unlock cookie or X-Upshot-Password. Spending a view is the
   * caller's part (only a download spends one).
   */
  async function gate(
    row: GatedRow,
    req: GateRequest,
    kind: LinkKind,
  ): Promise<Pass | Refusal | { kind: 'not-found' }> {
    const who = admit(row, req, kind);
    if (typeof who === 'object') return who;
    if (who === 'manager') return { kind: 'pass', visitor: false, granted: true };
    const now = clock.now().getTime();
    const granted =
      row.max_views !== null && urls.verifyGrant(row.id, req.cookies[grantCookieName(row.id)], now);
    if (isUsedUp(row) && !granted) return { kind: 'gone', reason: 'used-up' };
    const hash = row.password_hash;
    if (hash !== null && !urls.verifyUnlock(row, req.cookies[unlockCookieName(row.id)], now)) {
      if (req.password === undefined) return { kind: 'locked', wrong: false };
      const tried = await checkPassword(row, hash, req.password, req.ip);
      if (typeof tried === 'number') return { kind: 'too-many', retryAfterSeconds: tried };
      if (tried === 'wrong') return { kind: 'locked', wrong: true };
    }
    return { kind: 'pass', visitor: true, granted };
  }

  /**
   * The password form's POST: a right password earns the unlock cookie. A link that does not
   * exist (row undefined) or is private answers not found whatever was sent.
   */
  async function unlock(
    row: GatedRow | undefined,
    password: string,
    req: GateRequest,
  ): Promise<UnlockAnswer> {
    if (!row) return { kind: 'not-found' };
    const who = admit(row, req, 'file');
    if (typeof who === 'object') return who;
    const hash = row.password_hash;
    // A manager needs no cookie, and a link without a password has nothing to unlock.
    if (who === 'manager' || hash === null) return { kind: 'unlocked', cookie: null };
    const tried = await checkPassword(row, hash, password, req.ip);
    if (typeof tried === 'number') return { kind: 'too-many', retryAfterSeconds: tried };
    if (tried === 'wrong') return { kind: 'locked', wrong: true };
    return { kind: 'unlocked', cookie: urls.unlockCookie(row, clock.now().getTime()) };
  }

  return { gate, unlock };
}
