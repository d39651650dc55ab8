/** Every SQL query of the system module: the readiness probe's. */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export function createSystemRepository(db: Db) {
  return {
    /** One round trip to the database. */
    async ping(): Promise<void> {
      await sql`select 1`.execute(db);
    },
  };
}

export type SystemRepository = ReturnType<typeof createSystemRepository>;
