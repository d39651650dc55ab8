/** Every SQL query on users, and the lock that serializes the first-admin bootstrap. */
import { identityKey } from '@upshot/contract';
import { uniqueViolation, type Executor } from '../../db/database.ts';
import type { NewUserRow, UserRow } from '../../db/schema.ts';

export type UsersRepository = ReturnType<typeof createUsersRepository>;
type UsersQueries = ReturnType<typeof usersQueries>;

export type InsertResult = { user: UserRow } | { conflict: 'email' | 'username' };

export function createUsersRepository(db: Executor) {
  return {
    ...usersQueries(db),

    /**
     * Runs fn in a transaction that first takes the bootstrap lock row, so concurrent
     * starters (threads or instances, SQLite or PostgreSQL) run it one after another.
     */
    withBootstrapLock<T>(fn: (tx: UsersQueries) => Promise<T>): Promise<T> {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('app_locks')
          .set({ touched_at: new Date().toISOString() })
          .where('name', '=', 'bootstrap-admin')
          .execute();
        return fn(usersQueries(trx));
      });
    },
  };
}

function usersQueries(db: Executor) {
  return {
    findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** By email, compared in its normal form (identityKey). */
    findByEmail(email: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('email_key', '=', identityKey(email))
        .executeTakeFirst();
    },

    findByApiTokenDigest(digest: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('api_token_digest', '=', digest)
        .executeTakeFirst();
    },

    /** Inserts a user; an email or username taken already (in normal form) is a conflict. */
    async insert(row: Omit<NewUserRow, 'email_key' | 'username_key'>): Promise<InsertResult> {
      try {
        const user = await db
          .insertInto('users')
          .values({
            ...row,
            email_key: identityKey(row.email),
            username_key: identityKey(row.username),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { user };
      } catch (err) {
        const constraint = uniqueViolation(err);
        if (constraint === null) throw err;
        return { conflict: constraint.includes('username') ? 'username' : 'email' };
      }
    },

    async count(): Promise<number> {
      const { n } = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    /** Replaces the API token (its ciphertext and lookup digest); false when there is no such user. */
    async setApiToken(id: string, encrypted: string, digest: string): Promise<boolean> {
      const res = await db
        .updateTable('users')
        .set({ api_token_encrypted: encrypted, api_token_digest: digest })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    async setActive(id: string, active: boolean): Promise<void> {
      await db
        .updateTable('users')
        .set({ is_active: active ? 1 : 0 })
        .where('id', '=', id)
        .execute();
    },
  };
}
