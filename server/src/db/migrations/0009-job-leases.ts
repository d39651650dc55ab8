import type { Kysely, Migration } from 'kysely';

/**
 * job_leases: one row per periodic job, held by the instance running it until `expires_at`,
 * so that with several instances each job runs on one at a time, and a crashed instance's
 * lease simply runs out.
 */
export const m0009JobLeases: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('job_leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  },
};
