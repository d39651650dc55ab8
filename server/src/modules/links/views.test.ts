/**
 * Counting a view never fails a download nor holds it up: the view update made to fail (a
 * trigger), made slow (a row or database lock held elsewhere), and no file left open by
 * downloads cut short or whose view failed. Views are committed in batches (flushViews()
 * commits them now); a batch the database refuses is kept and committed once it takes it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { SQLite } from '../../db/database.ts';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { uploadFile, viewsOf } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { SMALL_BODY_BYTES, VIEW_FLUSH_MS } from './service.ts';

let ctx: TestContext;
let base: string;
let auth: Record<string, string>;
beforeAll(async () => {
  ctx = await createTestContext();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  ({ auth } = await signIn(ctx));
});
afterAll(() => ctx.close());

const isPostgres = () => ctx.handle.dialect === 'postgres';
const flushViews = () => ctx.modules.links.service.flushViews();

type Uploaded = { id: string; shortCode: string };
async function put(data: Buffer, filename = 'data.bin'): Promise<Uploaded> {
  const res = await uploadFile(ctx, auth, { filename, data });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ upload: Uploaded }>().upload;
}

const views = (id: string) => viewsOf(ctx, id);

/**
 * Makes every update of uploads.views (or of another column) fail until the returned function
 * is called.
 */
async function breakViews(column = 'views'): Promise<() => Promise<void>> {
  if (isPostgres()) {
    await sql
      .raw(
        `create function views_broken() returns trigger language plpgsql as $$
         begin raise exception 'views broken'; end $$`,
      )
      .execute(ctx.handle.db);
    await sql
      .raw(
        `create trigger views_broken before update of ${column} on uploads
         for each row execute function views_broken()`,
      )
      .execute(ctx.handle.db);
    return async () => {
      await sql.raw('drop trigger views_broken on uploads').execute(ctx.handle.db);
      await sql.raw('drop function views_broken()').execute(ctx.handle.db);
    };
  }
  await sql
    .raw(
      `create trigger views_broken before update of ${column} on uploads
       begin select raise(abort, 'views broken'); end`,
    )
    .execute(ctx.handle.db);
  return async () => {
    await sql.raw('drop trigger views_broken').execute(ctx.handle.db);
  };
}

/**
 * Holds a lock the view update must wait for, from another connection: the upload's row on
 * PostgreSQL, the database's write lock on SQLite. Resolves once it is held.
 */
async function holdLock(id: string): Promise<() => Promise<void>> {
  if (isPostgres()) {
    const client = new pg.Client({ connectionString: ctx.database.url });
    await client.connect();
    await client.query('begin');
    await client.query('select id from uploads where id = $1 for update', [id]);
    return async () => {
      await client.query('commit');
      await client.end();
    };
  }
  const other = new SQLite(path.join(ctx.dataDir, 'upshot.db'));
  other.exec('BEGIN IMMEDIATE');
  return async () => {
    other.exec('COMMIT');
    other.close();
  };
}

/** GET over a real connection (a fresh one each time): status and every byte. */
function download(url: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** GET over a real connection that hangs up after the first bytes of the body. */
function downloadAndHangUp(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve(res.statusCode ?? 0);
      });
      res.on('error', () => {});
    });
    req.on('error', (err) => {
      if (!req.destroyed) reject(err);
    });
  });
}

const openDescriptors = () => fs.readdirSync('/proc/self/fd').length;

const smallData = crypto.randomBytes(50_000);
const largeData = crypto.randomBytes(3 * 1024 * 1024 + 4321);

describe('views', () => {
  it('are committed on their own, within moments, to the upload and to its owner', async () => {
    const small = await put(smallData);
    const owner = async () => {
      const row = await ctx.handle.db
        .selectFrom('users')
        .innerJoin('uploads', 'uploads.user_id', 'users.id')
        .select('users.view_count')
        .where('uploads.id', '=', small.id)
        .executeTakeFirstOrThrow();
      return Number(row.view_count);
    };
    const before = await owner();
    for (let i = 0; i < 3; i++) {
      expect((await ctx.app.inject({ method: 'GET', url: `/${small.shortCode}` })).statusCode).toBe(
        200,
      );
    }
    // No flushViews(): the counter's own timer commits them.
    await vi.waitFor(async () => expect(await views(small.id)).toBe(3), {
      timeout: VIEW_FLUSH_MS * 8,
      interval: 20,
    });
    expect(await owner()).toBe(before + 3);
  });
});

describe('a view that cannot be counted', () => {
  it('does not fail the download of a small or a large file, and is committed once it can be', async () => {
    expect(smallData.length).toBeLessThanOrEqual(SMALL_BODY_BYTES);
    expect(largeData.length).toBeGreaterThan(SMALL_BODY_BYTES);
    const small = await put(smallData);
    const large = await put(largeData);
    const repair = await breakViews();
    try {
      const a = await ctx.app.inject({ method: 'GET', url: `/${small.shortCode}` });
      expect(a.statusCode).toBe(200);
      expect(a.rawPayload.equals(smallData)).toBe(true);
      const b = await download(`${base}/${large.shortCode}`);
      expect(b.status).toBe(200);
      expect(b.body.equals(largeData)).toBe(true);
      await expect(flushViews()).rejects.toThrow(/views broken/);
      expect(await views(small.id)).toBe(0);
      expect(await views(large.id)).toBe(0);
    } finally {
      await repair();
    }
    // The refused views were kept: committed now, with the next downloads'.
    await flushViews();
    expect(await views(small.id)).toBe(1);
    expect(await views(large.id)).toBe(1);
    await ctx.app.inject({ method: 'GET', url: `/${small.shortCode}` });
    await download(`${base}/${large.shortCode}`);
    await flushViews();
    expect(await views(small.id)).toBe(2);
    expect(await views(large.id)).toBe(2);
  });
});

describe('a view that is slow to count', () => {
  it('does not hold the download up, and is counted once the lock goes', async () => {
    const small = await put(smallData);
    const release = await holdLock(small.id);
    let released = false;
    try {
      const started = performance.now();
      const res = await ctx.app.inject({ method: 'GET', url: `/${small.shortCode}` });
      const elapsed = performance.now() - started;
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(smallData)).toBe(true);
      // The lock is in the way of every commit of views: the download did not wait for one.
      expect(elapsed).toBeLessThan(1000);
      // A commit started now waits for the lock (on SQLite, retries), then goes through.
      const flushed = flushViews();
      await release();
      released = true;
      await flushed;
    } finally {
      if (!released) await release();
    }
    expect(await views(small.id)).toBe(1);
  });
});

describe('open files', () => {
  it('are all closed after downloads cut short and downloads whose view failed', async () => {
    const large = await put(largeData);
    // Warm up: connections and buffers the first downloads open and keep.
    for (let i = 0; i < 3; i++) {
      expect((await download(`${base}/${large.shortCode}`)).status).toBe(200);
      expect(await downloadAndHangUp(`${base}/${large.shortCode}`)).toBe(200);
    }
    const baseline = openDescriptors();
    // A file handle left open is closed by the garbage collector sooner or later (the many
    // buffers of these downloads make it soon), which would hide a leak from the count; Node
    // warns when it does.
    const closedByGc: string[] = [];
    const onWarning = (w: Error) => {
      if (/Closing file descriptor/.test(w.message)) closedByGc.push(w.message);
    };
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 20; i++) {
        expect(await downloadAndHangUp(`${base}/${large.shortCode}`)).toBe(200);
      }
      const repair = await breakViews();
      try {
        for (let i = 0; i < 20; i++) {
          const res = await download(`${base}/${large.shortCode}`);
          expect(res.status).toBe(200);
          expect(res.body.equals(largeData)).toBe(true);
        }
      } finally {
        await repair();
      }
      await vi.waitFor(() => expect(openDescriptors()).toBeLessThanOrEqual(baseline), {
        timeout: 10_000,
      });
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(closedByGc).toEqual([]);
    // The downloads cut short counted, and so did those whose views were refused at first.
    await flushViews();
    expect(await views(large.id)).toBe(6 + 20 + 20);
  });

  it('are closed when a view of a view-limited link cannot be spent (the database fails)', async () => {
    const res = await uploadFile(
      ctx,
      auth,
      { filename: 'limited.bin', data: largeData },
      {
        maxViews: '100',
      },
    );
    expect(res.statusCode, res.body).toBe(201);
    const limited = res.json<{ upload: Uploaded }>().upload;
    expect((await download(`${base}/${limited.shortCode}`)).status).toBe(200);
    const baseline = openDescriptors();
    const repair = await breakViews('views_used');
    try {
      for (let i = 0; i < 20; i++) {
        expect((await download(`${base}/${limited.shortCode}`)).status).toBe(500);
      }
    } finally {
      await repair();
    }
    await vi.waitFor(() => expect(openDescriptors()).toBeLessThanOrEqual(baseline), {
      timeout: 10_000,
    });
    expect((await download(`${base}/${limited.shortCode}`)).status).toBe(200);
  });
});
