/**
 * SQLite shared with another process: its write lock is waited for on a timer, not in SQLite.
 * PostgreSQL: queries marked prepared() run as named statements; the pool keeps connections
 * open through a quiet spell, with TCP keep-alives.
 */
import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, testEngine, type TestContext } from '../../test/context.ts';
import { uploadFile } from '../../test/uploads.ts';
import { signIn } from '../../test/users.ts';
import { openDatabase, POOL_KEPT_OPEN, prepared, SQLite } from './database.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('another process writing to the SQLite file', () => {
  it('a transaction that reads then writes waits for it and succeeds (it answered 500)', async () => {
    if (ctx.handle.dialect !== 'sqlite') return; // PostgreSQL has row locks and its own waits
    const { auth } = await signIn(ctx);
    const ids: string[] = [];
    for (const name of ['a.txt', 'b.txt']) {
      ids.push(
        (await uploadFile(ctx, auth, { filename: name, data: Buffer.from(name) })).json().upload.id,
      );
    }
    const other = new SQLite(path.join(ctx.dataDir, 'upshot.db'));
    // Watches (and calls through) every statement run, to see the delete meet the lock.
    const runs = vi.spyOn(
      Object.getPrototypeOf(other.prepare('select 1')) as BetterSqlite3.Statement,
      'run',
    );
    try {
      other.exec('BEGIN IMMEDIATE');
      other.prepare("update app_locks set touched_at = 'x' where name = 'bootstrap-admin'").run();
      const deleting = ctx.app.inject({
        method: 'POST',
        url: '/api/uploads/batch/delete',
        headers: auth,
        payload: { uploadIds: ids },
      });
      // The delete has begun and waits for the lock (on a timer: this process still runs).
      await vi.waitFor(() => {
        const busy = runs.mock.results.filter(
          (r) => r.type === 'throw' && (r.value as { code?: unknown }).code === 'SQLITE_BUSY',
        );
        expect(busy.length).toBeGreaterThan(1);
      });
      other.exec('COMMIT');
      const res = await deleting;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ deletedCount: 2 });
    } finally {
      runs.mockRestore();
      other.close();
    }
  });
});

describe('prepared statements', () => {
  // SQLite caches every statement already.
  it.skipIf(testEngine !== 'postgres')(
    'a query marked prepared is prepared once per PostgreSQL connection; others are not',
    async () => {
      const marked = prepared(CompiledQuery.raw('select $1::int + 1 as n', [1]));
      const plain = CompiledQuery.raw('select $1::int + 2 as n', [1]);
      const statements = await ctx.handle.db.connection().execute(async (conn) => {
        expect((await conn.executeQuery(marked)).rows).toEqual([{ n: 2 }]);
        expect((await conn.executeQuery({ ...marked, parameters: [41] })).rows).toEqual([
          { n: 42 },
        ]);
        expect((await conn.executeQuery(plain)).rows).toEqual([{ n: 3 }]);
        const { rows } = await conn.executeQuery<{
          statement: string;
          from_sql: boolean;
          runs: number;
        }>(
          CompiledQuery.raw(
            'select statement, from_sql, generic_plans + custom_plans as runs from pg_prepared_statements',
          ),
        );
        return rows;
      });
      // Prepared by the protocol, not by a PREPARE statement; planned for both runs, parsed once.
      expect(statements.filter((row) => row.statement === marked.sql)).toEqual([
        { statement: marked.sql, from_sql: false, runs: 2 },
      ]);
      expect(statements.map((row) => row.statement)).not.toContain(plain.sql);
    },
  );
});

describe('the PostgreSQL pool through a quiet spell', () => {
  it.skipIf(testEngine !== 'postgres')(
    'keeps its first connections open after the idle time closes the others (it closed all)',
    async () => {
      const idleMs = 20;
      const handle = openDatabase({
        databaseUrl: ctx.config.databaseUrl,
        dataDir: ctx.dataDir,
        poolIdleMs: idleMs,
      });
      try {
        const backend: CompiledQuery<{ pid: number }> = CompiledQuery.raw(
          'select pg_backend_pid() as pid, pg_sleep(0.05)',
        );
        // Four queries at once: four connections.
        const first = await Promise.all(
          Array.from({ length: 4 }, () => handle.db.executeQuery(backend)),
        );
        expect(new Set(first.map((r) => r.rows[0]!.pid)).size).toBe(4);
        // The two above the kept ones close once idle...
        await vi.waitFor(() => expect(handle.poolUse()?.total).toBe(POOL_KEPT_OPEN), {
          timeout: 5000,
          interval: 10,
        });
        // ...and the kept ones stay, idle many times as long, and are the ones used next.
        await new Promise((resolve) => setTimeout(resolve, idleMs * 10));
        expect(handle.poolUse()).toEqual({
          total: POOL_KEPT_OPEN,
          idle: POOL_KEPT_OPEN,
          waiting: 0,
        });
        const next = await handle.db.executeQuery(backend);
        expect(first.map((r) => r.rows[0]!.pid)).toContain(next.rows[0]!.pid);
      } finally {
        await handle.db.destroy();
      }
    },
  );

  it.skipIf(testEngine !== 'postgres' || !fs.existsSync('/proc/net/tcp'))(
    'its connections send TCP keep-alives after a minute idle',
    async (test) => {
      const clientPort: CompiledQuery<{ port: number | null }> = CompiledQuery.raw(
        'select inet_client_port() as port',
      );
      const { rows } = await ctx.handle.db.executeQuery(clientPort);
      const port = rows[0]!.port;
      if (port === null) return test.skip('PostgreSQL is reached over a Unix socket');
      // The connection's socket in the kernel's table: once idle, its timer is the keep-alive
      // timer (2), due in about 60 s (clock ticks of 1/100 s); without keep-alives, none (0).
      await vi.waitFor(() => {
        const timer = tcpTimer(port!);
        expect(timer).toMatchObject({ kind: 2 });
        expect(timer!.dueSeconds).toBeGreaterThan(30);
        expect(timer!.dueSeconds).toBeLessThanOrEqual(60);
      });
    },
  );

  it.skipIf(testEngine !== 'postgres')(
    'a kept connection the server closes is replaced: the next query succeeds',
    async () => {
      // The server ends each session idle for 100 ms.
      const url = new URL(ctx.config.databaseUrl!);
      url.searchParams.set('options', '-c idle_session_timeout=100');
      const handle = openDatabase({ databaseUrl: url.toString(), dataDir: ctx.dataDir });
      try {
        const backend: CompiledQuery<{ pid: number }> = CompiledQuery.raw(
          'select pg_backend_pid() as pid',
        );
        const before = (await handle.db.executeQuery(backend)).rows[0]!.pid;
        await vi.waitFor(() => expect(handle.poolUse()?.total).toBe(0), {
          timeout: 5000,
          interval: 10,
        });
        const after = (await handle.db.executeQuery(backend)).rows[0]!.pid;
        expect(after).not.toBe(before);
      } finally {
        await handle.db.destroy();
      }
    },
  );
});

/** The kernel's timer on this process's established TCP socket from this local port. */
function tcpTimer(localPort: number): { kind: number; dueSeconds: number } | null {
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(table)) continue;
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when ...
      const [, local, , state, , timer] = line.trim().split(/\s+/);
      const port = local ? parseInt(local.split(':').at(-1)!, 16) : null;
      if (state === '01' && port === localPort) {
        const [kind, when] = timer!.split(':');
        return { kind: parseInt(kind!, 16), dueSeconds: parseInt(when!, 16) / 100 };
      }
    }
  }
  return null;
}
