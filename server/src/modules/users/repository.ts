/** Every SQL query on users, and the lock that serializes the first-admin bootstrap. */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { NewUserRow, UserRow } from '../../db/schema.ts';

export interface UsersRepository {
  findByEmail(email: string): Promise<UserRow | undefined>;
  findByApiTokenDigest(digest: string): Promise<UserRow | undefined>;
  insert(row: NewUserRow): Promise<UserRow>;
  count(): Promise<number>;
  setActive(id: string, active: boolean): Promise<void>;
  withBootstrapLock<T>(fn: (tx: UsersRepository) => Promise<T>): Promise<T>;
}

export function createUsersRepository(db: Db): UsersRepository {
  return {
    findByEmail(email: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where(sql<string>`lower(email)`, '=', email.toLowerCase())
        .executeTakeFirst();
    },

    findByApiTokenDigest(digest: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('api_token_digest', '=', digest)
        .executeTakeFirst();
    },

    async insert(row: NewUserRow): Promise<UserRow> {
      return db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
    },

    async count(): Promise<number> {
      const { n } = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    async setActive(id: string, active: boolean): Promise<void> {
      await db
        .updateTable('users')
        .set({ is_active: active ? 1 : 0 })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Runs fn in a transaction that first takes the bootstrap lock row, so concurrent
     * starters (threads or instances, SQLite or PostgreSQL) run it one after another.
     */
    withBootstrapLock<T>(fn: (tx: UsersRepository) => Promise<T>): Promise<T> {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('app_locks')
          .set({ touched_at: new Date().toISOString() })
          .where('name', '=', 'bootstrap-admin')
          .execute();
        return fn(createUsersRepository(trx));
      });
    },
  };
}
