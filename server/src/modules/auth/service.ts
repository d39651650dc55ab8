/** Sign-in, sessions (30-day sliding expiry) and token authentication. */
import crypto from 'node:crypto';
import type { UserRow } from '../../db/schema.ts';
import { RateLimitError, UnauthorizedError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { hmacHex, randomToken, sha256Hex, type Keys } from '../../lib/crypto.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import type { UsersRepository } from '../users/repository.ts';
import type { AuthRepository } from './repository.ts';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session's expiry slides at most once a minute, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60 * 1000;
export const LOGIN_LIMIT = { max: 10, windowMs: 60 * 1000 };

export type Authenticated = { user: UserRow; sessionId: string | null };
export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: {
  auth: AuthRepository;
  users: UsersRepository;
  keys: Keys;
  clock: Clock;
}) {
  const { auth, users, keys, clock } = deps;
  // Unknown emails are checked against this hash so they take as long as a wrong password.
  const dummyHash = hashPassword(randomToken(16));

  async function enforceLoginLimit(ip: string, email: string): Promise<void> {
    const now = clock.now().getTime();
    const windowStart = now - (now % LOGIN_LIMIT.windowMs);
    const [byIp, byEmail] = await Promise.all([
      auth.hitRateLimit(`login:ip:${ip}`, windowStart),
      auth.hitRateLimit(`login:email:${email.toLowerCase()}`, windowStart),
    ]);
    if (byIp > LOGIN_LIMIT.max || byEmail > LOGIN_LIMIT.max) {
      const retryAfter = Math.ceil((windowStart + LOGIN_LIMIT.windowMs - now) / 1000);
      throw new RateLimitError(
        `Too many sign-in attempts. Try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
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
    }): Promise<{ token: string; user: UserRow }> {
      await enforceLoginLimit(input.ip, input.email);
      const user = await users.findByEmail(input.email);
      const ok = await verifyPassword(user?.password_hash ?? (await dummyHash), input.password);
      if (!user || !ok || user.is_active !== 1) throw new UnauthorizedError('Invalid credentials');

      const token = randomToken(32);
      const now = clock.now();
      await auth.insertSession({
        id: crypto.randomUUID(),
        user_id: user.id,
        token_digest: sha256Hex(token),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
        last_used_at: now.toISOString(),
        user_agent: input.userAgent?.slice(0, 512) ?? null,
      });
      return { token, user };
    },

    async logout(sessionId: string): Promise<void> {
      await auth.deleteSession(sessionId);
    },

    /** A bearer session token -> its active user, sliding the expiry; null when not valid. */
    async authenticateSession(token: string): Promise<Authenticated | null> {
      const found = await auth.findSessionWithUser(sha256Hex(token));
      if (!found) return null;
      const { session, user } = found;
      const now = clock.now();
      if (Date.parse(session.expires_at) <= now.getTime()) {
        await auth.deleteSession(session.id);
        return null;
      }
      if (user.is_active !== 1) return null;
      if (now.getTime() - Date.parse(session.last_used_at) >= TOUCH_INTERVAL_MS) {
        await auth.touchSession(
          session.id,
          now.toISOString(),
          new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
        );
      }
      return { user, sessionId: session.id };
    },

    /** A desktop client's personal API token -> its active user; null when not valid. */
    async authenticateApiToken(token: string): Promise<Authenticated | null> {
      const user = await users.findByApiTokenDigest(hmacHex(keys.tokenLookup, token));
      if (!user || user.is_active !== 1) return null;
      return { user, sessionId: null };
    },

    /** Periodic housekeeping: expired sessions and old rate-limit windows. */
    async sweep(): Promise<number> {
      const now = clock.now();
      await auth.deleteStaleRateLimits(now.getTime() - 60 * 60 * 1000);
      return auth.deleteExpiredSessions(now.toISOString());
    },
  };
}
