/**
 * Listing latency with 100,000 uploads for one user (and 20,000 for a neighbour), a tag on
 * 10,000 of the user's uploads, and the user's statistics, on SQLite
 * and, when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, on PostgreSQL. Requests go
 * through the whole app (routing, auth, validation, SQL, JSON) with inject; the reference is
 * GET /api/auth/me in the same run (the same auth and routing, one indexed lookup).
 *   npm run list -w bench
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { fileTypeOf } from '@upshot/contract';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { tagSearchText } from '../server/src/db/search.ts';
import { fmt, onEachEngine, percentile } from './support/common.ts';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 100_000);
const TAGGED = UPLOADS / 10;
const RUNS = 200;
const WORDS = [
  'holiday',
  'report',
  'invoice',
  'screenshot',
  'cat',
  'dog',
  'beach',
  'draft',
  'final',
  'scan',
  'meeting',
  'budget',
  'photo',
  'clip',
  'backup',
  'notes',
  'design',
  'logo',
  'receipt',
  'map',
];
const TYPES: [string, string][] = [
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['mp4', 'video/mp4'],
  ['pdf', 'application/pdf'],
  ['txt', 'text/plain'],
  ['zip', 'application/zip'],
  ['bin', 'application/octet-stream'],
];
const pick = <T>(a: T[]): T => a[Math.floor(Math.random() * a.length)] as T;

async function runEngine(label: string, databaseUrl: string | undefined) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-list-'));
  const config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
  };
  const handle = openDatabase(config);
  const { db } = handle;
  await migrateToLatest(handle);
  const { app, modules } = await buildApp({
    config,
    db,
    secretKey: 'bench-secret-key-0123456789abcdefghijklmnop',
  });
  try {
    const user = await modules.users.service.create({
      email: 'me@example.com',
      username: 'me',
      role: 'user',
      password: 'bench-password-1',
    });
    const neighbour = await modules.users.service.create({
      email: 'n@example.com',
      username: 'n',
      role: 'user',
      password: 'bench-password-1',
    });

    const t0 = Date.now();
    const start = Date.now() - 365 * 24 * 3600 * 1000;
    const mine: { id: string; file_type: string; body: string }[] = [];
    for (const [owner, count] of [
      [user.id, UPLOADS],
      [neighbour.id, UPLOADS / 5],
    ] as const) {
      for (let i = 0; i < count; i += 500) {
        const rows = Array.from({ length: Math.min(500, count - i) }, (_, j) => {
          const [ext, mime] = pick(TYPES);
          const id = crypto.randomUUID();
          return {
            id,
            user_id: owner,
            original_filename: `${pick(WORDS)}-${pick(WORDS)}-${i + j}.${ext}`,
            mime_type: mime,
            file_type: fileTypeOf(mime) ?? 'other',
            size: Math.floor(Math.random() * 50_000_000),
            sha256: null,
            views: Math.floor(Math.random() * 1000),
            short_code: id.replace(/-/g, '').slice(0, 10),
            vanity_url: Math.random() < 0.02 ? `v-${id.slice(0, 8)}` : null,
            is_public: 1 as const,
            storage_key: `u/00/00/${id.replace(/-/g, '')}`,
            thumbnail_status: 'none' as const,
            thumbnail_key: null,
            created_at: new Date(start + Math.random() * 365 * 24 * 3600 * 1000).toISOString(),
          };
        });
        await db.insertInto('uploads').values(rows).execute();
        if (owner === user.id) {
          for (const r of rows) {
            mine.push({
              id: r.id,
              file_type: r.file_type,
              body: tagSearchText(r.original_filename, r.vanity_url),
            });
          }
        }
      }
    }
    // The counters and summary rows the upload path keeps, for rows inserted around it.
    await modules.stats.service.rebuild();
    // A tag on every tenth of the user's uploads, spread over the whole year.
    const tag = await modules.tags.service.create(user, 'bench');
    const tagged = mine.filter((_, i) => i % (UPLOADS / TAGGED) === 0);
    for (let i = 0; i < tagged.length; i += 500) {
      await db
        .insertInto('upload_tags')
        .values(
          tagged.slice(i, i + 500).map((u) => ({
            tag_id: tag.id,
            upload_id: u.id,
            file_type: u.file_type,
            body: u.body,
          })),
        )
        .execute();
    }
    // What autovacuum would have done by now on a real instance.
    await sql.raw(databaseUrl ? 'vacuum analyze' : 'analyze').execute(db);
    const seeded = Date.now() - t0;

    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'me@example.com', password: 'bench-password-1' },
    });
    const auth = { authorization: `Bearer ${login.json().token}` };

    const cases: [string, () => string][] = [
      ['GET /api/auth/me (reference)', () => '/api/auth/me'],
      ['newest, page 1', () => '/api/uploads'],
      ['oldest', () => '/api/uploads?sort=oldest'],
      ['largest', () => '/api/uploads?sort=largest'],
      ['smallest', () => '/api/uploads?sort=smallest'],
      ['most-viewed', () => '/api/uploads?sort=most-viewed'],
      ['type=images', () => '/api/uploads?type=images'],
      ['type=archives, largest', () => '/api/uploads?type=archives&sort=largest'],
      ['search (word)', () => `/api/uploads?search=${pick(WORDS)}`],
      [
        'search + type + sort',
        () => `/api/uploads?search=${pick(WORDS)}&type=documents&sort=most-viewed`,
      ],
      ['search, no match', () => '/api/uploads?search=zzqx'],
      ['page 50, limit 100', () => '/api/uploads?page=50&limit=100'],
      [`tag (${TAGGED.toLocaleString('en-US')} uploads)`, () => `/api/uploads?tag=${tag.id}`],
      ['tag, oldest', () => `/api/uploads?tag=${tag.id}&sort=oldest`],
      ['tag, largest', () => `/api/uploads?tag=${tag.id}&sort=largest`],
      ['tag, smallest', () => `/api/uploads?tag=${tag.id}&sort=smallest`],
      ['tag, most-viewed', () => `/api/uploads?tag=${tag.id}&sort=most-viewed`],
      ['tag + type=images', () => `/api/uploads?tag=${tag.id}&type=images`],
      ['tag + search (word)', () => `/api/uploads?tag=${tag.id}&search=${pick(WORDS)}`],
      ['tag, page 20', () => `/api/uploads?tag=${tag.id}&page=20`],
      ['GET /api/tags/{id}/uploads', () => `/api/tags/${tag.id}/uploads`],
      ['GET /api/tags', () => '/api/tags'],
      ['GET /api/stats', () => '/api/stats'],
    ];
    // Each listing lists something (a zero counter would answer an empty page fast).
    for (const [name, url] of cases.slice(1, -2).filter(([n]) => !n.includes('no match'))) {
      const res = await app.inject({ method: 'GET', url: url(), headers: auth });
      const total = (res.json() as { total?: number }).total;
      if (res.statusCode !== 200 || !total)
        throw new Error(`${name}: ${res.statusCode}, total ${total}`);
    }
    console.log(
      `\n${label}: ${UPLOADS.toLocaleString('en-US')} uploads for one user (seeded in ${fmt(seeded / 1000)} s); ${RUNS} requests per row`,
    );
    console.log(`  ${'query'.padEnd(32)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
    for (const [name, url] of cases) {
      for (let i = 0; i < 10; i++) await app.inject({ method: 'GET', url: url(), headers: auth });
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        const res = await app.inject({ method: 'GET', url: url(), headers: auth });
        times.push(performance.now() - t);
        if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
      }
      times.sort((a, b) => a - b);
      console.log(
        `  ${name.padEnd(32)} ${fmt(percentile(times, 50), 2).padStart(8)} ${fmt(percentile(times, 95), 2).padStart(8)}`,
      );
    }
  } finally {
    await app.close();
    await db.destroy();
    if (!process.env.BENCH_KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
    else console.log(`kept ${dataDir}`);
  }
}

await onEachEngine(runEngine);
