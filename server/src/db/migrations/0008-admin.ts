import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Administration and access:
 * - users.last_seen_at: when the user last signed in or used a session (at most once a minute);
 * - invites: single-use invitation codes, stored only as a digest, each for one user and until
 *   its expiry;
 * - access_requests: visitors asking for an account (pending, approved or rejected; `member`
 *   when the email has an account), at most one pending or member per email;
 * - audit_log: every administrator action, with who, what, on whom and when;
 * - the app_locks row `admins`, which changes to administrators take first, so two of them
 *   can never together leave no active administrator.
 */
export const m0008Admin: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('last_seen_at', 'text').execute();
    await sql`insert into app_locks (name) values ('admins')`.execute(db);

    await db.schema
      .createTable('invites')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('code_digest', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('invites_user_idx').on('invites').column('user_id').execute();

    await db.schema
      .createTable('access_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_key', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .addColumn('decided_by', 'text')
      .execute();
    await db.schema
      .createIndex('access_requests_status_idx')
      .on('access_requests')
      .columns(['status', 'created_at'])
      .execute();
    // At most one open request per email, the same on both engines (a partial index). A
    // request for an email that has an account is kept as `member` (never listed or decided)
    // and holds the slot too, so a second request answers alike whether or not it has one.
    await db.schema
      .createIndex('access_requests_open_email_key')
      .on('access_requests')
      .column('email_key')
      .unique()
      .where(sql<boolean>`status in ('pending', 'member')`)
      .execute();

    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('actor_id', 'text')
      .addColumn('actor_username', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target_type', 'text', (c) => c.notNull())
      .addColumn('target_id', 'text')
      .addColumn('target_label', 'text', (c) => c.notNull())
      .addColumn('details', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('audit_log_created_idx')
      .on('audit_log')
      .columns(['created_at', 'id'])
      .execute();
  },
};
