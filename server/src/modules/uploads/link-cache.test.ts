/**
 * The links kept in memory (link-cache.ts): the rules of keeping (a lease, a version that a
 * drop moves on), then, on PostgreSQL, the database's side: the count of changes and its
 * notification, a lease extended only past an ack of every change, and a change that waits for
 * an instance's ack or the end of its lease before it is answered.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createTestContext,
  TEST_SECRET,
  testEngine,
  type TestContext,
} from '../../../test/context.ts';
import { servedFromMemory } from '../../../test/link-cache.ts';
import { startTcpGate } from '../../../test/tcp-gate.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import { buildApp } from '../../app.ts';
import { openDatabase } from '../../db/database.ts';
import { CHANNEL, LEASE_MS, LinkMemory, LISTENER_NAME, MAX_ENTRIES } from './link-cache.ts';
import type { LinkRow } from './repository.ts';

const row = (id: string): LinkRow => ({
  id,
  user_id: 'u',
  is_public: 1,
  mime_type: 'text/plain',
  original_filename: `${id}.txt`,
  created_at: '2026-11-26T00:00:00.000Z',
  size: 1,
  storage_key: `k-${id}`,
});

describe('what an instance keeps', () => {
  let now = 0;
  const memory = () => {
    now = 0;
    return new LinkMemory(() => now);
  };

  it('keeps nothing and answers nothing without a lease', () => {
    const m = memory();
    m.put(m.version(), 'a', row('a'));
    expect(m.get('a')).toBeUndefined();
    expect(m.size()).toBe(0);
  });

  it('answers what it keeps while the lease lasts, then drops it all', () => {
    const m = memory();
    m.renewed(0);
    m.put(m.version(), 'a', row('a'));
    expect(m.get('a')?.id).toBe('a');
    expect(m.hits).toBe(1);
    now = LEASE_MS - 300;
    expect(m.get('a')?.id).toBe('a');
    // The lease ends locally a margin before the database's end.
    now = LEASE_MS - 200;
    expect(m.get('a')).toBeUndefined();
    expect(m.size()).toBe(0);
    // Renewed again: what was dropped stays dropped.
    m.renewed(now);
    expect(m.get('a')).toBeUndefined();
  });

  it('does not keep what a lookup sent before a change found', () => {
    const m = memory();
    m.renewed(0);
    const before = m.version();
    expect(m.changed(1)).toBe(true);
    m.put(before, 'a', row('a'));
    expect(m.get('a')).toBeUndefined();
    const after = m.version();
    m.put(after, 'a', row('a'));
    expect(m.get('a')?.id).toBe('a');
  });

  it('drops everything when the count moved, either way, and on a lost connection', () => {
    const m = memory();
    m.renewed(0);
    expect(m.changed(5)).toBe(true);
    m.put(m.version(), 'a', row('a'));
    // The count acked already: nothing to drop.
    expect(m.changed(5)).toBe(false);
    expect(m.get('a')?.id).toBe('a');
    // A count that went back (a database restored): a change.
    expect(m.changed(3)).toBe(true);
    expect(m.get('a')).toBeUndefined();
    expect(m.acked).toBe(3);
    m.put(m.version(), 'a', row('a'));
    m.lost();
    expect(m.active()).toBe(false);
    expect(m.get('a')).toBeUndefined();
  });

  it(`keeps at most ${MAX_ENTRIES} links, the oldest kept going first`, () => {
    const m = memory();
    m.renewed(0);
    for (let i = 0; i <= MAX_ENTRIES; i++) m.put(m.version(), `s${i}`, row(`s${i}`));
    expect(m.size()).toBe(MAX_ENTRIES);
    expect(m.get('s0')).toBeUndefined();
    expect(m.get(`s${MAX_ENTRIES}`)?.id).toBe(`s${MAX_ENTRIES}`);
  });
});

describe.runIf(testEngine === 'postgres')('the database side (PostgreSQL)', () => {
  let ctx: TestContext;
  let auth: Record<string, string>;
  beforeAll(async () => {
    ctx = await createTestContext();
    ({ auth } = await signIn(ctx));
  });
  afterAll(() => ctx.close());

  const count = async () =>
    Number(
      (await sql<{ seq: string }>`select seq from link_changes`.execute(ctx.handle.db)).rows[0]!
        .seq,
    );
  const renew = async (instance: string, acked: number) =>
    (
      await sql<{
        renewed: boolean;
      }>`select upshot_renew_link_lease(${instance}, ${acked}, 3) as renewed`.execute(ctx.handle.db)
    ).rows[0]!.renewed;
  const lease = async (instance: string) =>
    (
      await sql<{
        live: boolean;
        acked: string;
      }>`select until > now() as live, acked from link_cache_leases where instance = ${instance}`.execute(
        ctx.handle.db,
      )
    ).rows[0];

  async function put(name: string) {
    const res = await uploadFile(
      ctx,
      auth,
      { filename: name, contentType: 'text/plain', data: crypto.randomBytes(100) },
      { isPublic: 'true' },
    );
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ upload: { id: string; shortCode: string } }>().upload;
  }

  it('counts a change once per transaction, notifies it, and not an upload added or viewed', async () => {
    const listener = new pg.Client({ connectionString: ctx.config.databaseUrl });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(`${n.channel}:${n.payload}`));
    try {
      await listener.query(`listen ${CHANNEL}`);
      const start = await count();
      const a = await put('a.txt');
      const b = await put('b.txt');
      ctx.modules.uploads.service.countView(a.id);
      await ctx.modules.uploads.service.flushViews();
      expect(await count()).toBe(start);

      // Two uploads and their slugs in one transaction: one change.
      const deleted = await ctx.app.inject({
        method: 'POST',
        url: '/api/uploads/batch/delete',
        headers: auth,
        payload: { uploadIds: [a.id, b.id] },
      });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(await count()).toBe(start + 1);
      await vi.waitFor(() => expect(heard).toEqual([`${CHANNEL}:${start + 1}`]));

      // A change rolled back is no change.
      const c = await put('c.txt');
      await ctx.handle.db
        .transaction()
        .execute(async (trx) => {
          await trx.deleteFrom('uploads').where('id', '=', c.id).execute();
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      expect(await count()).toBe(start + 1);
      await ctx.handle.db
        .updateTable('uploads')
        .set({ original_filename: 'renamed.txt' })
        .where('id', '=', c.id)
        .execute();
      expect(await count()).toBe(start + 2);
      await vi.waitFor(() => expect(heard).toHaveLength(2));
      // Two statements, settings reset between them: still one change.
      await ctx.handle.db.transaction().execute(async (trx) => {
        for (const name of ['again.txt', 'once-more.txt']) {
          await trx
            .updateTable('uploads')
            .set({ original_filename: name })
            .where('id', '=', c.id)
            .execute();
          await sql`reset all`.execute(trx);
        }
      });
      expect(await count()).toBe(start + 3);
      await vi.waitFor(() => expect(heard).toHaveLength(3));
    } finally {
      await listener.end();
    }
  });

  it('extends a lease only past an ack of the latest change', async () => {
    const instance = `test-${crypto.randomUUID()}`;
    const latest = await count();
    // Not renewed, and no lease held before: no row.
    expect(await renew(instance, latest - 1)).toBe(false);
    expect(await lease(instance)).toBeUndefined();
    expect(await renew(instance, latest)).toBe(true);
    expect(await lease(instance)).toEqual({ live: true, acked: latest });
    // A change after it: the lease stays as it was, the ack moves on; then it is extended.
    const up = await put('d.txt');
    await ctx.handle.db.deleteFrom('uploads').where('id', '=', up.id).execute();
    expect(await renew(instance, latest)).toBe(false);
    expect((await lease(instance))?.live).toBe(true);
    expect(await renew(instance, latest + 1)).toBe(true);
    // An ack above the count (from before the count went back) is no ack of it.
    expect(await renew(instance, latest + 2)).toBe(false);
    await sql`delete from link_cache_leases where instance = ${instance}`.execute(ctx.handle.db);
  });

  it("a delete waits for an instance that holds a lease and has not acked, until the lease's end", async () => {
    // An instance that froze just after it renewed: its lease lasts, its ack never comes.
    const frozen = `frozen-${crypto.randomUUID()}`;
    expect(await renew(frozen, await count())).toBe(true);
    const up = await put('e.txt');
    const started = performance.now();
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${up.id}`,
      headers: auth,
    });
    const took = performance.now() - started;
    expect(deleted.statusCode).toBe(204);
    // Answered after the frozen lease ran out (it had almost all of its LEASE_MS left), not
    // before, and no later than a moment after it.
    expect(await lease(frozen)).toMatchObject({ live: false });
    expect(took).toBeGreaterThan(LEASE_MS - 1000);
    expect(took).toBeLessThan(LEASE_MS + 2000);

    // This instance's own lease, renewed along the way, acked the change.
    const upshot = await sql<{
      acked: string;
    }>`select acked from link_cache_leases where instance <> ${frozen}`.execute(ctx.handle.db);
    expect(upshot.rows.map((r) => Number(r.acked))).toEqual([await count()]);
  });

  it('an instance that cannot reach the database stops answering from memory when its lease ends: a link deleted meanwhile is not served again', async () => {
    // Instance B reaches the database through a gate that can stall its connections.
    const direct = new URL(ctx.config.databaseUrl!);
    const gate = await startTcpGate({ host: direct.hostname, port: Number(direct.port || 5432) });
    const throughGate = new URL(direct);
    throughGate.host = `127.0.0.1:${gate.port}`;
    const config = { ...ctx.config, databaseUrl: throughGate.toString() };
    const handle = openDatabase(config);
    const b = await buildApp({ config, db: handle.db, secretKey: TEST_SECRET });
    try {
      const up = await put('f.txt');
      const getOnB = () => b.app.inject({ method: 'GET', url: `/${up.shortCode}` });
      await servedFromMemory(b, `/${up.shortCode}`);

      gate.hold();
      // A's delete: B can neither hear of it nor ack it, so A waits out B's lease.
      const started = performance.now();
      const deleted = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/uploads/${up.id}`,
        headers: auth,
      });
      expect(deleted.statusCode).toBe(204);
      expect(performance.now() - started).toBeGreaterThan(LEASE_MS - 1500);
      // B could answer only from memory now: it must not; it answers once the database does.
      const answer = getOnB();
      gate.release();
      expect((await answer).statusCode).toBe(404);
    } finally {
      gate.release();
      await b.app.close();
      await handle.db.destroy();
      await gate.close();
    }
  });

  it('takes a notification only as a cue to read the count: a forged one acks nothing', async () => {
    const up = await put('g.txt');
    const link = `/${up.shortCode}`;
    const forger = new pg.Client({ connectionString: ctx.config.databaseUrl });
    await forger.connect();
    try {
      await forger.query(`notify ${CHANNEL}, '1000000000'`);
    } finally {
      await forger.end();
    }
    await servedFromMemory(ctx, link);
    await ctx.handle.db.deleteFrom('uploads').where('id', '=', up.id).execute();
    await ctx.modules.uploads.service.linksChanged();
    expect((await ctx.app.inject({ method: 'GET', url: link })).statusCode).toBe(404);
    // The one lease held now, this instance's, acks the real count.
    const acks = await sql<{
      acked: string;
    }>`select acked from link_cache_leases where until > now()`.execute(ctx.handle.db);
    expect(acks.rows.map((r) => Number(r.acked))).toEqual([await count()]);
  });

  it('catches up with a count that went back (a database restored), though nothing notified it', async () => {
    const up = await put('i.txt');
    const link = `/${up.shortCode}`;
    await servedFromMemory(ctx, link);
    await sql`update link_changes set seq = seq - 5`.execute(ctx.handle.db);
    const back = await count();
    // Its next renewal is refused: it reads the count, drops what it kept and acks.
    await vi.waitFor(
      async () => {
        const rows = await sql<{
          acked: string;
        }>`select acked from link_cache_leases where until > now()`.execute(ctx.handle.db);
        expect(rows.rows.map((r) => Number(r.acked))).toEqual([back]);
      },
      { timeout: 10_000, interval: 20 },
    );
    // A change numbered as one it acked before the count went back is still a change.
    await ctx.handle.db.deleteFrom('uploads').where('id', '=', up.id).execute();
    await ctx.modules.uploads.service.linksChanged();
    expect((await ctx.app.inject({ method: 'GET', url: link })).statusCode).toBe(404);
  });

  it('its listening connection ended by the database: nothing answered from memory until it is back', async () => {
    const up = await put('j.txt');
    const link = `/${up.shortCode}`;
    await servedFromMemory(ctx, link);
    const ended = await sql<{
      ended: boolean;
    }>`select pg_terminate_backend(pid) as ended from pg_stat_activity
      where application_name = ${LISTENER_NAME} and datname = current_database()`.execute(
      ctx.handle.db,
    );
    expect(ended.rows.map((r) => r.ended)).toEqual([true]);
    // Told at once (the socket closes): memory gone, lookups read the database.
    await vi.waitFor(() => expect(ctx.modules.uploads.linkCache.stats().active).toBe(false));
    expect(ctx.modules.uploads.linkCache.stats().entries).toBe(0);
    // Connected again, it serves from memory again.
    await servedFromMemory(ctx, link);
  });

  it('a change whose acks cannot be read is answered as made, once the leases have run out', async () => {
    const other = await createTestContext();
    try {
      await other.handle.db.destroy();
      const started = performance.now();
      await other.modules.uploads.service.linksChanged();
      expect(performance.now() - started).toBeGreaterThanOrEqual(LEASE_MS - 50);
    } finally {
      await other.app.close();
      await other.database.drop();
    }
  });

  // Last: it empties the tables.
  it('counts a TRUNCATE of either table as a change', async () => {
    await put('h.txt');
    const before = await count();
    await sql`truncate slugs`.execute(ctx.handle.db);
    expect(await count()).toBe(before + 1);
    await sql`truncate uploads cascade`.execute(ctx.handle.db);
    expect(await count()).toBe(before + 2);
  });
});
