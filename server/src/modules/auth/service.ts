/** Sign-in with its rate limits, sessions (30-day sliding expiry) and token authentication. */
import crypto from 'node:crypto';
import { identityKey } from '@upshot/contract';
import { INVITE_TTL_MS } from '@upshot/contract';
import {
  ConflictError,
  ForbiddenError,
  InvalidInviteError,
  RateLimitError,
  UnauthorizedError,
  ValidationError,
} from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { hashPassword, temporaryPassword } from '../../lib/passwords.ts';
import type { UserRow } from '../../db/schema.ts';
import type { Auth } from '../../lib/caller.ts';
import type { UsersService } from '../users/index.ts';
import type { AuthRepository } from './repository.ts';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session's expiry slides at most once a minute, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60 * 1000;
/** Per address (every attempt) and per account (failed attempts), in fixed one-minute windows. */
export const LOGIN_LIMIT = { max: 10, windowMs: 60 * 1000 };
/**
 * While an account is over its limit, addresses that have not failed on it share one lane:
 * a single attempt per LIMITED_ACCOUNT_LANE_MS is checked (so guessing stays as slow as the
 * limit allows, whatever the number of addresses), and a right password gets in after a
 * short pause, so nobody can lock the owner out by failing on purpose.
 */
export const LIMITED_ACCOUNT_LANE_MS = LOGIN_LIMIT.windowMs / LOGIN_LIMIT.max;
export const LIMITED_ACCOUNT_DELAY_MS = 1000;

export type { Auth };

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: {
  auth: AuthRepository;
  users: UsersService;
  clock: Clock;
  /** How the limited-account pause waits (tests pass one that does not). */
  sleep?: (ms: number) => Promise<void>;
}) {
  const { auth, users, clock } = deps;
  const sleep = deps.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  function limited(windowEnd: number, now: number, what = 'sign-in attempts'): RateLimitError {
    const retryAfter = Math.max(1, Math.ceil((windowEnd - now) / 1000));
    return new RateLimitError(
      `Too many ${what}. Try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
      retryAfter,
    );
  }

  /**
   * A limited request writes nothing: an address over its limit is refused before anything is
   * counted; an account over its limit refuses addresses that failed on it in this window, and
   * takes one attempt per lane from any other address, letting a right password through after
   * a pause.
   */
  async function signIn(input: { email: string; password: string; ip: string }) {
    const now = clock.now().getTime();
    const windowStart = now - (now % LOGIN_LIMIT.windowMs);
    const account = identityKey(input.email);
    const keys = {
      address: `login:ip:${input.ip}`,
      account: `login:account:${account}`,
      accountFromAddress: `login:account-ip:${account}:${input.ip}`,
      lane: `login:account-lane:${account}`,
    };
    const windowEnd = windowStart + LOGIN_LIMIT.windowMs;
    const laneStart = now - (now % LIMITED_ACCOUNT_LANE_MS);
    const [byAddress, byAccount, fromHere] = await Promise.all([
      auth.rateCount(keys.address, windowStart),
      auth.rateCount(keys.account, windowStart),
      auth.rateCount(keys.accountFromAddress, windowStart),
    ]);
    const accountLimited = byAccount >= LOGIN_LIMIT.max;
    if (byAddress >= LOGIN_LIMIT.max || (accountLimited && fromHere > 0)) {
      throw limited(windowEnd, now);
    }
    if (accountLimited && (await auth.rateCount(keys.lane, laneStart)) > 0) {
      throw limited(laneStart + LIMITED_ACCOUNT_LANE_MS, now);
    }
    if ((await auth.hitRateLimit(keys.address, windowStart)) > LOGIN_LIMIT.max) {
      throw limited(windowEnd, now); // others raced past the read above
    }
    if (accountLimited && (await auth.hitRateLimit(keys.lane, laneStart)) > 1) {
      throw limited(laneStart + LIMITED_ACCOUNT_LANE_MS, now);
    }

    const { user, passwordOk, passwordHash } = await users.verifyCredentials(
      input.email,
      input.password,
    );
    if (!user || !passwordOk || !user.isActive || passwordHash === null) {
      await auth.hitRateLimit(keys.account, windowStart);
      await auth.hitRateLimit(keys.accountFromAddress, windowStart);
      throw new UnauthorizedError('Invalid credentials');
    }
    if (accountLimited) await sleep(LIMITED_ACCOUNT_DELAY_MS);
    return { user, passwordHash };
  }

  /**
   * Counts one attempt under key in a fixed window and refuses it (429, naming `what`) past
   * max: the counter lives in the database, so it holds across instances.
   */
  async function limitAttempts(
    key: string,
    limit: { max: number; windowMs: number },
    what: string,
  ): Promise<void> {
    const now = clock.now().getTime();
    const windowStart = now - (now % limit.windowMs);
    if ((await auth.hitRateLimit(key, windowStart)) > limit.max) {
      const retryAfter = Math.max(1, Math.ceil((windowStart + limit.windowMs - now) / 1000));
      const minutes = Math.ceil(retryAfter / 60);
      throw new RateLimitError(
        retryAfter >= 120
          ? `Too many ${what}. Try again in ${minutes} minutes.`
          : `Too many ${what}. Try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
        retryAfter,
      );
    }
  }

  return {
    async login(input: {
      email: string;
      password: string;
      ip: string;
      userAgent: string | undefined;
    }): Promise<{ token: string; userId: string }> {
      const { user, passwordHash } = await signIn(input);
      const token = randomToken(32);
      const now = clock.now();
      // A password changed since it was checked opens nothing.
      const opened = await auth.insertSessionIfPassword(passwordHash, {
        id: crypto.randomUUID(),
        user_id: user.id,
        token_digest: sha256Hex(token),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
        last_used_at: now.toISOString(),
        user_agent: input.userAgent?.slice(0, 512) ?? null,
      });
      if (!opened) throw new UnauthorizedError('Invalid credentials');
      return { token, userId: user.id };
    },

    /** Ends the caller's session; an API token has none to end (it stays valid). */
    async logout(caller: Auth): Promise<void> {
      if (caller.sessionId) await auth.deleteSession(caller.sessionId);
    },

    /** A bearer session token -> its active user, sliding the expiry; null when not valid. */
    async authenticateSession(token: string): Promise<Auth | null> {
      const found = await auth.findSession(sha256Hex(token));
      if (!found) return null;
      const { session, user } = found;
      const now = clock.now();
      if (Date.parse(session.expires_at) <= now.getTime()) {
        await auth.deleteSession(session.id);
        return null;
      }
      if (!user.isActive) return null;
      if (now.getTime() - Date.parse(session.last_used_at) >= TOUCH_INTERVAL_MS) {
        await auth.touchSession(
          session.id,
          user.id,
          now.toISOString(),
          new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
        );
      }
      return { user, sessionId: session.id };
    },

    /** A desktop client's personal API token -> its active user; null when not valid. */
    async authenticateApiToken(token: string): Promise<Auth | null> {
      const user = await users.findByApiToken(token);
      return user?.isActive ? { user, sessionId: null } : null;
    },

    /**
     * Changes the caller's own password after checking the current one, then signs out every
     * other session. Only from a signed-in session: a desktop API token (which sits in files)
     * cannot. Every attempt counts against a limit of its own (10 a minute per account), taken
     * before the check, so guesses sent at once are limited too.
     */
    async changePassword(
      caller: Auth,
      userId: string,
      input: { currentPassword: string; newPassword: string },
    ): Promise<void> {
      if (caller.user.id !== userId) {
        throw new ForbiddenError('You can only change your own password');
      }
      if (caller.sessionId === null) {
        throw new ForbiddenError('Sign in to change your password; an API token cannot');
      }
      const now = clock.now().getTime();
      const windowStart = now - (now % LOGIN_LIMIT.windowMs);
      if ((await auth.hitRateLimit(`password:account:${userId}`, windowStart)) > LOGIN_LIMIT.max) {
        throw limited(windowStart + LOGIN_LIMIT.windowMs, now, 'password attempts');
      }
      const checked = await users.checkPassword(userId, input.currentPassword);
      if (checked === null) throw new ValidationError('Current password is incorrect');
      if (input.newPassword === input.currentPassword) {
        throw new ValidationError('The new password must differ from the current one');
      }
      const changed = await auth.replacePassword(userId, await hashPassword(input.newPassword), {
        keepSessionId: caller.sessionId,
        mustChange: false,
        ifHash: checked,
      });
      // Another change got in first: the current password checked above is no longer current.
      if (!changed) throw new ValidationError('Current password is incorrect');
    },

    /**
     * Gives a user a random temporary password they must change at their next sign-in, and
     * signs them out everywhere; answers the password (shown once). False: no such user.
     */
    async setTemporaryPassword(userId: string): Promise<string | null> {
      const password = temporaryPassword();
      const hash = await hashPassword(password);
      const done = await auth.replacePassword(userId, hash, {
        keepSessionId: null,
        mustChange: true,
      });
      return done ? password : null;
    },

    limitAttempts,

    /**
     * A limit on failures alone (wrong link passwords: a right one, sent again and again by a
     * script, is never limited). An attempt takes its place in the window at once, so attempts
     * made together cannot all slip under the limit; a right one is then given back. `wait`:
     * the seconds until the window ends when past the limit (the attempt is refused), else 0.
     */
    /** Seconds until key's window ends when it is at its limit, else 0 (counts nothing). */
    async attemptWait(key: string, limit: { max: number; windowMs: number }): Promise<number> {
      const now = clock.now().getTime();
      const windowStart = now - (now % limit.windowMs);
      if ((await auth.rateCount(key, windowStart)) < limit.max) return 0;
      return Math.max(1, Math.ceil((windowStart + limit.windowMs - now) / 1000));
    },

    async takeAttempt(
      key: string,
      limit: { max: number; windowMs: number },
    ): Promise<{ wait: number; giveBack: () => Promise<void> }> {
      const now = clock.now().getTime();
      const windowStart = now - (now % limit.windowMs);
      const count = await auth.hitRateLimit(key, windowStart);
      const wait =
        count > limit.max ? Math.max(1, Math.ceil((windowStart + limit.windowMs - now) / 1000)) : 0;
      return { wait, giveBack: () => auth.giveBackRateLimit(key, windowStart) };
    },

    /** A single-use invitation for a user, valid INVITE_TTL_MS; only its digest is stored. */
    async createInvite(userId: string): Promise<{ code: string; expiresAt: string }> {
      const code = randomToken(24);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + INVITE_TTL_MS).toISOString();
      await auth.insertInvite({
        id: crypto.randomUUID(),
        user_id: userId,
        code_digest: sha256Hex(code),
        created_at: now.toISOString(),
        expires_at: expiresAt,
      });
      return { code, expiresAt };
    },

    /** Who an invitation is for; an invalid, used or expired code is refused the same way. */
    async inviteInfo(code: string, ip: string) {
      await limitAttempts(`invite:ip:${ip}`, LOGIN_LIMIT, 'attempts');
      const found = await auth.findInvite(sha256Hex(code), clock.now().toISOString());
      if (!found || found.user.is_active !== 1) throw new InvalidInviteError();
      return {
        email: found.user.email,
        username: found.user.username,
        expiresAt: found.invite.expires_at,
      };
    },

    /**
     * Accepts an invitation: sets the password (and the username, if another is asked for),
     * uses the invitation up and signs the user in. Limited per address like sign-in.
     */
    async register(input: {
      inviteCode: string;
      password: string;
      username?: string;
      ip: string;
      userAgent: string | undefined;
    }): Promise<{ token: string; user: UserRow }> {
      await limitAttempts(`register:ip:${input.ip}`, LOGIN_LIMIT, 'attempts');
      const token = randomToken(32);
      const now = clock.now();
      const result = await auth.acceptInvite({
        codeDigest: sha256Hex(input.inviteCode),
        now: now.toISOString(),
        passwordHash: await hashPassword(input.password),
        username: input.username,
        session: {
          id: crypto.randomUUID(),
          token_digest: sha256Hex(token),
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
          last_used_at: now.toISOString(),
          user_agent: input.userAgent?.slice(0, 512) ?? null,
        },
      });
      if (result === 'invalid') throw new InvalidInviteError();
      if (result === 'username-taken') {
        throw new ConflictError('A user with this username already exists');
      }
      return { token, user: result.user };
    },

    /** Signs a user out everywhere (their API token is checked against their status apart). */
    revokeSessions: (userId: string) => auth.deleteUserSessions(userId),

    /** Periodic housekeeping: expired sessions and old rate-limit windows. */
    async sweep(): Promise<number> {
      const now = clock.now();
      await auth.deleteStaleRateLimits(now.getTime() - 60 * 60 * 1000);
      return auth.deleteExpiredSessions(now.toISOString());
    },
  };
}
