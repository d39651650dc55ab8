/**
 * Statistics latency as data grows: 1,000,000 uploads across 1,000 users, one of whom has
 * 100,000, on SQLite and, when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, on PostgreSQL.
 * Rows are generated inside the database, then the summary rows are rebuilt (the upload path
 * keeps them as it goes). Requests go through the whole app with inject; the reference is
 * GET /api/auth/me in the same run.
 *   npm run stats -w bench
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import type { Database } from '../server/src/db/schema.ts';
import { fmt, onEachEngine, percentile } from './support/common.ts';

const TOTAL = Number(process.env.BENCH_STATS_UPLOADS ?? 1_000_000);
const USERS = Number(process.env.BENCH_STATS_USERS ?? 1000);
const BIG = TOTAL / 10;
const RUNS = 200;

/** count rows for user `userSql` (an SQL expression of the row number i), generated in SQL. */
function generate(
  db: Kysely<Database>,
  postgres: boolean,
  from: number,
  count: number,
  userOf: string,
) {
  if (postgres) {
    return sql`insert into uploads (id, user_id, original_filename, mime_type, file_type, size,
        views, short_code, is_public, storage_key, thumbnail_status, created_at)
      select md5(i::text || 'u'), ${sql.raw(userOf)}, 'file-' || i || '.png',
        (array['image/png','video/mp4','application/pdf','application/zip','application/octet-stream'])[1 + i % 5],
        (array['images','videos','documents','archives','other'])[1 + i % 5],
        (random() * 50000000)::bigint, (random() * 1000)::bigint, 'c' || i, 1, 'u/' || i, 'none',
        to_char(now() at time zone 'utc' - random() * interval '365 days', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      from generate_series(${from}::int, ${from + count - 1}::int) as i`.execute(db);
  }
  return sql`with recursive n(i) as (select ${from} union all select i + 1 from n where i < ${from + count - 1})
    insert into uploads (id, user_id, original_filename, mime_type, file_type, size,
        views, short_code, is_public, storage_key, thumbnail_status, created_at)
      select lower(hex(randomblob(16))), ${sql.raw(userOf)}, 'file-' || i || '.png',
        case i % 5 when 0 then 'image/png' when 1 then 'video/mp4' when 2 then 'application/pdf' when 3 then 'application/zip' else 'application/octet-stream' end,
        case i % 5 when 0 then 'images' when 1 then 'videos' when 2 then 'documents' when 3 then 'archives' else 'other' end,
        abs(random()) % 50000000, abs(random()) % 1000, 'c' || i, 1, 'u/' || i, 'none',
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (abs(random()) % 31536000) || ' seconds')
      from n`.execute(db);
}

async function runEngine(label: string, databaseUrl: string | undefined) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-stats-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const handle = openDatabase(config);
  const { db } = handle;
  const postgres = Boolean(databaseUrl);
  await migrateToLatest(handle);
  const { app, modules } = await buildApp({
    config,
    db,
    secretKey: 'bench-secret-key-0123456789abcdefghijklmnop',
  });
  try {
    const password = 'bench-password-1';
    const big = await modules.users.service.create({
      email: 'big@example.com',
      username: 'big',
      role: 'admin',
      password,
    });
    const small = await modules.users.service.create({
      email: 'small@example.com',
      username: 'small',
      role: 'user',
      password,
    });
    const t0 = Date.now();
    // The other users: the same hashes, their own identities and token digests.
    const others = Array.from({ length: USERS - 2 }, (_, i) => ({
      ...small,
      id: `user-${String(i).padStart(4, '0')}`,
      username: `user${i}`,
      username_key: `user${i}`,
      email: `user${i}@example.com`,
      email_key: `user${i}@example.com`,
      api_token_digest: crypto.randomBytes(32).toString('hex'),
    }));
    for (let i = 0; i < others.length; i += 200) {
      await db
        .insertInto('users')
        .values(others.slice(i, i + 200))
        .execute();
    }
    // The big user's uploads, then the rest spread over every other user.
    const step = 50_000;
    for (let i = 0; i < BIG; i += step) {
      await generate(db, postgres, i, Math.min(step, BIG - i), `'${big.id}'`);
    }
    const ids = [small.id, ...others.map((o) => o.id)];
    const userOf = postgres
      ? `(array[${ids.map((id) => `'${id}'`).join(',')}])[1 + i % ${ids.length}]`
      : `case i % ${ids.length} ${ids.map((id, k) => `when ${k} then '${id}'`).join(' ')} end`;
    for (let i = BIG; i < TOTAL; i += step) {
      await generate(db, postgres, i, Math.min(step, TOTAL - i), userOf);
    }
    await modules.stats.service.rebuild();
    await sql.raw(postgres ? 'vacuum analyze' : 'analyze').execute(db);
    const seeded = Date.now() - t0;

    const signIn = async (email: string) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password },
      });
      return { authorization: `Bearer ${res.json().token}` };
    };
    const bigAuth = await signIn('big@example.com');
    const smallAuth = await signIn('small@example.com');
    const cases: [string, string, Record<string, string>][] = [
      ['GET /api/auth/me (reference)', '/api/auth/me', bigAuth],
      [`GET /api/stats (${BIG.toLocaleString('en-US')} uploads)`, '/api/stats', bigAuth],
      [
        `GET /api/stats (${Math.round((TOTAL - BIG) / (USERS - 1)).toLocaleString('en-US')} uploads)`,
        '/api/stats',
        smallAuth,
      ],
      ['GET /api/stats/admin', '/api/stats/admin', bigAuth],
    ];
    console.log(
      `\n${label}: ${TOTAL.toLocaleString('en-US')} uploads across ${USERS.toLocaleString('en-US')} users (seeded in ${fmt(seeded / 1000)} s); ${RUNS} requests per row`,
    );
    console.log(`  ${'request'.padEnd(32)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
    for (const [name, url, auth] of cases) {
      for (let i = 0; i < 10; i++) await app.inject({ method: 'GET', url, headers: auth });
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        const res = await app.inject({ method: 'GET', url, headers: auth });
        times.push(performance.now() - t);
        if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
      }
      times.sort((a, b) => a - b);
      console.log(
        `  ${name.padEnd(32)} ${fmt(percentile(times, 50), 2).padStart(8)} ${fmt(percentile(times, 95), 2).padStart(8)}`,
      );
    }
    // The answers describe the data (not an empty instance answered fast).
    const admin = (
      await app.inject({ method: 'GET', url: '/api/stats/admin', headers: bigAuth })
    ).json();
    if (admin.totalUploads !== TOTAL || admin.totalUsers !== USERS) {
      throw new Error(`admin stats: ${admin.totalUploads} uploads, ${admin.totalUsers} users`);
    }
  } finally {
    await app.close();
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await onEachEngine(runEngine);
