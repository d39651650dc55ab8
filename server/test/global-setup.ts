/**
 * With TEST_DATABASE_URL set, the suite runs on PostgreSQL too, and PostgreSQL must answer:
 * a run that silently tested SQLite alone would claim more than it checked.
 */
import pg from 'pg';

export default async function checkPostgres(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (err) {
    throw new Error(
      `TEST_DATABASE_URL is set (${url}) but PostgreSQL does not answer: ${
        err instanceof Error ? err.message : String(err)
      }. Start it, or unset TEST_DATABASE_URL to test on SQLite only.`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
