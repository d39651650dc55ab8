import { sql, type Kysely, type Migration } from 'kysely';

/** users, sessions, login rate limits and the bootstrap lock. */
export const m0001Init: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('user', 'admin')`))
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('disk_used', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('disk_quota', 'bigint', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('api_token_encrypted', 'text', (c) => c.notNull())
      .addColumn('api_token_digest', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('users_email_lower_key')
      .on('users')
      .unique()
      .expression(sql`lower(email)`)
      .execute();
    await db.schema
      .createIndex('users_username_lower_key')
      .on('users')
      .unique()
      .expression(sql`lower(username)`)
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_digest', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text', (c) => c.notNull())
      .addColumn('user_agent', 'text')
      .execute();
    await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
    await db.schema
      .createIndex('sessions_expires_at_idx')
      .on('sessions')
      .column('expires_at')
      .execute();

    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('app_locks')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('touched_at', 'text')
      .execute();
    await sql`insert into app_locks (name) values ('bootstrap-admin')`.execute(db);
  },
};
