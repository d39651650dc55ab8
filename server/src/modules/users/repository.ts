/** Every SQL query on users, and the lock that serializes the first-admin bootstrap. */
import { identityKey } from '@upshot/contract';
import { uniqueViolation, type Executor } from '../../db/database.ts';
import { pageOf, type PageQuery } from '../../db/paging.ts';
import type { NewUserRow, UserRow } from '../../db/schema.ts';
import { likePattern } from '../../db/search.ts';
import { sql, type SqlBool } from 'kysely';

export type UsersRepository = ReturnType<typeof createUsersRepository>;
export type UsersQueries = ReturnType<typeof usersQueries>;

export type UserFilter = {
  search?: string;
  role?: 'user' | 'admin';
  active?: boolean;
};

export type UserChanges = Partial<{
  is_active: 0 | 1;
  role: 'user' | 'admin';
  disk_quota: number;
  username: string;
}>;

export type InsertResult = { user: UserRow } | { conflict: 'email' | 'username' };

export function createUsersRepository(db: Executor) {
  return {
    ...usersQueries(db),

    /**
     * Runs fn in a transaction that first takes the bootstrap lock row, so concurrent
     * starters (threads or instances, SQLite or PostgreSQL) run it one after another.
     */
    /**
     * Runs fn in a transaction that first takes the `admins` lock row: every change that could
     * leave no active administrator (deactivating, demoting, deleting) runs one after another.
     */
    withAdminsLock<T>(fn: (tx: UsersQueries) => Promise<T>): Promise<T> {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('app_locks')
          .set({ touched_at: new Date().toISOString() })
          .where('name', '=', 'admins')
          .execute();
        return fn(usersQueries(trx));
      });
    },

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

    /**
     * Replaces the API token (its ciphertext and lookup digest) if it is still the one whose
     * digest is `previousDigest`; false otherwise.
     */
    async setApiToken(
      id: string,
      previousDigest: string,
      encrypted: string,
      digest: string,
    ): Promise<boolean> {
      const res = await db
        .updateTable('users')
        .set({ api_token_encrypted: encrypted, api_token_digest: digest })
        .where('id', '=', id)
        .where('api_token_digest', '=', previousDigest)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    /** A page of users, newest first. */
    list(filter: UserFilter, page: PageQuery) {
      let q = db.selectFrom('users').selectAll();
      if (filter.search) {
        const pattern = likePattern(identityKey(filter.search));
        q = q.where(
          sql<SqlBool>`(username_key like ${pattern} escape '\\' or email_key like ${pattern} escape '\\')`,
        );
      }
      if (filter.role) q = q.where('role', '=', filter.role);
      if (filter.active !== undefined) q = q.where('is_active', '=', filter.active ? 1 : 0);
      return pageOf(q.orderBy('created_at', 'desc').orderBy('id', 'desc'), page);
    },

    /** Active administrators other than `except`. */
    async countOtherActiveAdmins(except: string): Promise<number> {
      const { n } = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('role', '=', 'admin')
        .where('is_active', '=', 1)
        .where('id', '!=', except)
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    /** Applies changes; a username taken already is a conflict; undefined for no such user. */
    async update(
      id: string,
      changes: UserChanges,
    ): Promise<{ user: UserRow } | { conflict: 'username' } | undefined> {
      const set = {
        ...changes,
        ...(changes.username !== undefined ? { username_key: identityKey(changes.username) } : {}),
      };
      try {
        const user = await db
          .updateTable('users')
          .set(set)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        return user ? { user } : undefined;
      } catch (err) {
        if (uniqueViolation(err) === null) throw err;
        return { conflict: 'username' };
      }
    },

    /** Deletes the user; their uploads, tags, sessions and the rest go with them (cascades). */
    async delete(id: string): Promise<boolean> {
      const res = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
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
