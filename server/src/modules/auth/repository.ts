/** Every SQL query on sessions and login rate-limit counters. */
import type { Db } from '../../db/database.ts';
import type { SessionRow, UserRow } from '../../db/schema.ts';

export type AuthRepository = ReturnType<typeof createAuthRepository>;

export function createAuthRepository(db: Db) {
  return {
    async insertSession(row: SessionRow): Promise<void> {
      await db.insertInto('sessions').values(row).execute();
    },

    async findSessionWithUser(
      tokenDigest: string,
    ): Promise<{ session: SessionRow; user: UserRow } | undefined> {
      const session = await db
        .selectFrom('sessions')
        .selectAll()
        .where('token_digest', '=', tokenDigest)
        .executeTakeFirst();
      if (!session) return undefined;
      const user = await db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', session.user_id)
        .executeTakeFirst();
      return user ? { session, user } : undefined;
    },

    async touchSession(id: string, lastUsedAt: string, expiresAt: string): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ last_used_at: lastUsedAt, expires_at: expiresAt })
        .where('id', '=', id)
        .execute();
    },

    async deleteSession(id: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
    },

    async deleteExpiredSessions(now: string): Promise<number> {
      const res = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
      return Number(res.numDeletedRows);
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

    async deleteStaleRateLimits(before: number): Promise<void> {
      await db.deleteFrom('rate_limits').where('window_start', '<', before).execute();
    },
  };
}
