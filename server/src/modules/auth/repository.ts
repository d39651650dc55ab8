/** Every SQL query on sessions and sign-in rate-limit counters. */
import type { Executor } from '../../db/database.ts';
import type { InviteRow, SessionRow, UserRow } from '../../db/schema.ts';
import { identityKey } from '@upshot/contract';
import { uniqueViolation } from '../../db/database.ts';
import type { AuthUser } from '../../lib/caller.ts';

export type AuthRepository = ReturnType<typeof createAuthRepository>;

/** Rolls the acceptance back: the invitation's user is gone or deactivated. */
class InviteUnusable extends Error {}

export function createAuthRepository(db: Executor) {
  return {
    /**
     * Opens a session only while passwordHash is still the user's (the row locked meanwhile on
     * PostgreSQL): a password changed after it was checked opens nothing, and a change that
     * comes after this deletes the new session with the others. The user is seen now.
     */
    async insertSessionIfPassword(passwordHash: string, row: SessionRow): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const seen = await trx
          .updateTable('users')
          .set({ last_seen_at: row.last_used_at })
          .where('id', '=', row.user_id)
          .where('password_hash', '=', passwordHash)
          .executeTakeFirst();
        if (Number(seen.numUpdatedRows) === 0) return false;
        await trx.insertInto('sessions').values(row).execute();
        return true;
      });
    },

    /** A session by its token's digest, with the narrow user it belongs to (one statement). */
    async findSession(
      tokenDigest: string,
    ): Promise<
      | { session: Pick<SessionRow, 'id' | 'expires_at' | 'last_used_at'>; user: AuthUser }
      | undefined
    > {
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select([
          'sessions.id as session_id',
          'sessions.expires_at',
          'sessions.last_used_at',
          'users.id as user_id',
          'users.role',
          'users.username',
          'users.email',
          'users.is_active',
          'users.must_change_password',
        ])
        .where('sessions.token_digest', '=', tokenDigest)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        session: { id: row.session_id, expires_at: row.expires_at, last_used_at: row.last_used_at },
        user: {
          id: row.user_id,
          role: row.role,
          username: row.username,
          email: row.email,
          isActive: row.is_active === 1,
          mustChangePassword: row.must_change_password === 1,
        },
      };
    },

    /** Slides a session's expiry; its user is seen now. */
    async touchSession(
      id: string,
      userId: string,
      lastUsedAt: string,
      expiresAt: string,
    ): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ last_used_at: lastUsedAt, expires_at: expiresAt })
        .where('id', '=', id)
        .execute();
      await db
        .updateTable('users')
        .set({ last_seen_at: lastUsedAt })
        .where('id', '=', userId)
        .execute();
    },

    async deleteSession(id: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
    },

    /**
     * Sets a new password hash (and whether it must be changed at the next sign-in) and signs
     * out every session of the user but keepSessionId, in one transaction: no old session
     * outlives the change. With ifHash, only while that is still the hash. False when nothing
     * changed (no such user, or another change came first).
     */
    async replacePassword(
      userId: string,
      passwordHash: string,
      options: { keepSessionId: string | null; mustChange: boolean; ifHash?: string },
    ): Promise<boolean> {
      const { keepSessionId, ifHash } = options;
      return db.transaction().execute(async (trx) => {
        let update = trx
          .updateTable('users')
          .set({ password_hash: passwordHash, must_change_password: options.mustChange ? 1 : 0 })
          .where('id', '=', userId);
        if (ifHash !== undefined) update = update.where('password_hash', '=', ifHash);
        const res = await update.executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) return false;
        let sessions = trx.deleteFrom('sessions').where('user_id', '=', userId);
        if (keepSessionId !== null) sessions = sessions.where('id', '!=', keepSessionId);
        await sessions.execute();
        // A password set any other way voids the invitations still open: a link left in a
        // mailbox must not reset a password chosen (or reset by an administrator) since.
        await trx
          .deleteFrom('invites')
          .where('user_id', '=', userId)
          .where('used_at', 'is', null)
          .execute();
        return Number(res.numUpdatedRows) > 0;
      });
    },

    async insertInvite(row: Omit<InviteRow, 'used_at'>): Promise<void> {
      await db.insertInto('invites').values(row).execute();
    },

    /** An unused, unexpired invitation by its code's digest, with its user. */
    async findInvite(
      codeDigest: string,
      now: string,
    ): Promise<{ invite: InviteRow; user: UserRow } | undefined> {
      const invite = await db
        .selectFrom('invites')
        .selectAll()
        .where('code_digest', '=', codeDigest)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (!invite) return undefined;
      const user = await db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', invite.user_id)
        .executeTakeFirst();
      return user ? { invite, user } : undefined;
    },

    /**
     * Accepts an invitation in one transaction: marks it used (only if it still is unused and
     * unexpired, so of two registrations with one code exactly one gets here), sets the
     * password and clears the must-change flag, renames the user if asked, signs out any
     * session, and opens the new one. Answers what happened.
     */
    async acceptInvite(input: {
      codeDigest: string;
      now: string;
      passwordHash: string;
      username?: string;
      session: Omit<SessionRow, 'user_id'>;
    }): Promise<{ user: UserRow } | 'invalid' | 'username-taken'> {
      try {
        return await db.transaction().execute(async (trx) => {
          const found = await trx
            .selectFrom('invites')
            .select('user_id')
            .where('code_digest', '=', input.codeDigest)
            .where('used_at', 'is', null)
            .where('expires_at', '>', input.now)
            .executeTakeFirst();
          if (!found) return 'invalid' as const;
          // The user's row first, then the invitation: the order of every password change and
          // of a deletion (users, then invites by cascade), so they queue instead of deadlocking.
          const updated = await trx
            .updateTable('users')
            .set({
              password_hash: input.passwordHash,
              must_change_password: 0,
              last_seen_at: input.now,
              ...(input.username !== undefined
                ? { username: input.username, username_key: identityKey(input.username) }
                : {}),
            })
            .where('id', '=', found.user_id)
            .where('is_active', '=', 1)
            .returningAll()
            .executeTakeFirst();
          if (!updated) throw new InviteUnusable();
          // Only if still unused: of two registrations with one code, the second ends here
          // (after the first committed) and its password change is rolled back.
          const invite = await trx
            .updateTable('invites')
            .set({ used_at: input.now })
            .where('code_digest', '=', input.codeDigest)
            .where('user_id', '=', found.user_id)
            .where('used_at', 'is', null)
            .where('expires_at', '>', input.now)
            .returning(['id', 'user_id'])
            .executeTakeFirst();
          if (!invite) throw new InviteUnusable();
          await trx.deleteFrom('sessions').where('user_id', '=', invite.user_id).execute();
          await trx
            .insertInto('sessions')
            .values({ ...input.session, user_id: invite.user_id })
            .execute();
          // The user as it stands in this transaction: a deletion right after cannot make the
          // answer fail.
          return { user: updated };
        });
      } catch (err) {
        if (err instanceof InviteUnusable) return 'invalid';
        if (uniqueViolation(err) !== null) return 'username-taken';
        throw err;
      }
    },

    async deleteUserSessions(userId: string): Promise<void> {
      await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },

    async deleteExpiredSessions(now: string): Promise<number> {
      const res = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
      return Number(res.numDeletedRows);
    },

    /** The hits counted under key in the window starting at windowStart (read only). */
    async rateCount(key: string, windowStart: number): Promise<number> {
      const row = await db
        .selectFrom('rate_limits')
        .select('count')
        .where('key', '=', key)
        .where('window_start', '=', windowStart)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    /** Counts one hit in a fixed window and returns the window's count (atomic upsert). */
    async hitRateLimit(key: string, windowStart: number): Promise<number> {
      const row = await db
        .insertInto('rate_limits')
        .values({ key, window_start: windowStart, count: 1 })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet((eb) => ({
            count: eb
              .case()
              .when('rate_limits.window_start', '=', eb.ref('excluded.window_start'))
              .then(eb('rate_limits.count', '+', 1))
              .else(1)
              .end(),
            window_start: eb.ref('excluded.window_start'),
          })),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Takes back one hit counted in the window starting at windowStart (not in a later one). */
    async giveBackRateLimit(key: string, windowStart: number): Promise<void> {
      await db
        .updateTable('rate_limits')
        .set((eb) => ({ count: eb('count', '-', 1) }))
        .where('key', '=', key)
        .where('window_start', '=', windowStart)
        .where('count', '>', 0)
        .execute();
    },

    async deleteStaleRateLimits(before: number): Promise<void> {
      await db.deleteFrom('rate_limits').where('window_start', '<', before).execute();
    },
  };
}
