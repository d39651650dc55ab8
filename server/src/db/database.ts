/** Opens SQLite (default) or PostgreSQL. The only place that knows which engine is behind Kysely. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type SqliteDialectConfig,
  type SelectQueryBuilder,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
/** The database or a transaction on it: what a repository runs its statements on. */
export type Executor = Kysely<Database> | Transaction<Database>;

export type DatabaseHandle = {
  db: Db;
  dialect: Dialect;
  /**
   * Runs fn while holding a lock that every process migrating this database takes. Kysely
   * locks migrations on PostgreSQL itself, but not across processes on SQLite.
   */
  withMigrationLock: <T>(fn: () => Promise<T>) => Promise<T>;
  /** The PostgreSQL pool's connections now; null on SQLite (one connection, no pool). */
  poolUse: () => PoolUse | null;
};

export type PoolUse = { total: number; idle: number; waiting: number };

/**
 * PostgreSQL connections a pool keeps open however long it is idle: up to this many of those
 * it has opened (it opens none to reach it, nor replaces one the server closed until a query
 * needs it).
 */
export const POOL_KEPT_OPEN = 2;

/**
 * The SQLite driver for this Node. better-sqlite3 13 needs Node-API 10 (Node 22.14 and later);
 * 12 is the last to run on Node 20, and on Node 24 it aborts the process whenever one of its
 * objects is garbage-collected (node::ObjectWrap's cleanup hook, removed with no environment at
 * hand). So 13 where it runs, and 12 (`better-sqlite3-node20`) on Node 20.
 */
export const SQLite = createRequire(import.meta.url)(
  Number(process.versions.napi) >= 10 ? 'better-sqlite3' : 'better-sqlite3-node20',
) as typeof BetterSqlite3;

// int8 (COUNT, SUM, bigint columns) arrives as a string by default; our numbers stay below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  /** How long a PostgreSQL connection above POOL_KEPT_OPEN stays idle before it closes. */
  poolIdleMs?: number;
}): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // Up to two connections (a download's lookup, the views' commit) stay open through a
      // quiet spell; above that, connections close after 10 s idle. Without this the first
      // download after 10 s of quiet opened a new connection first: 3-9 ms instead of 2-3 ms
      // locally, a TLS handshake more to a database across a network.
      min: POOL_KEPT_OPEN,
      idleTimeoutMillis: options.poolIdleMs ?? 10_000,
      // A connection idle for hours must not be dropped silently by a NAT or firewall on the
      // way (the next query would wait out TCP's retries): TCP keep-alives once a minute.
      keepAlive: true,
      keepAliveInitialDelayMillis: 60_000,
    });
    // A request's queries read a page or a few rows: starting parallel workers costs more than
    // it saves (a tag's 20th page: 28 ms with workers, 14 without). A plain SET on each new
    // connection, not a startup option, which poolers such as PgBouncer refuse. Only a hint:
    // a connection without it answers the same, a little slower.
    pool.on('connect', (client) => {
      client.query('set max_parallel_workers_per_gather = 0').catch(() => {});
    });
    // An idle connection can break (the server restarts, an admin ends it): the pool drops it
    // and the next query opens a new one. Without a listener the error would end the process.
    pool.on('error', () => {});
    prepareRegistered(pool);
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      dialect: 'postgres',
      withMigrationLock: (fn) => fn(),
      poolUse: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
    };
  }
  const file = path.join(options.dataDir, 'upshot.db');
  createPrivately(options.dataDir, file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // Never wait inside SQLite: better-sqlite3 is synchronous, so a busy wait there stops the
  // whole process (every request, every timer). Busy statements are retried on a timer instead.
  sqlite.pragma('busy_timeout = 0');
  sqlite.pragma('synchronous = NORMAL');
  cacheStatements(sqlite);
  return {
    db: new Kysely<Database>({ dialect: new TransactionalSqliteDialect({ database: sqlite }) }),
    dialect: 'sqlite',
    poolUse: () => null,
    withMigrationLock: async (fn) => {
      // An exclusive transaction on a side file: the OS drops the lock if the process dies.
      const lockFile = path.join(options.dataDir, 'upshot.db.migrate-lock');
      createPrivately(options.dataDir, lockFile);
      const lock = new SQLite(lockFile);
      try {
        lock.pragma('busy_timeout = 120000');
        lock.exec('BEGIN EXCLUSIVE');
        try {
          return await fn();
        } finally {
          lock.exec('COMMIT');
        }
      } finally {
        lock.close();
      }
    },
  };
}

/**
 * Creates the directory (0700) and an empty database file (0600) when they are not there yet,
 * whatever the umask: SQLite would make the file readable by everyone, and it gives the -wal
 * and -shm files the database file's mode. What exists already is left as it is.
 */
function createPrivately(dir: string, file: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
}

/**
 * SQLite runs DDL inside transactions, but Kysely's adapter says it does not, so its migrator
 * would run each migration statement by statement: a crash midway left half a schema. With
 * this adapter every pending migration runs in one transaction, as on PostgreSQL.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
class TransactionalSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
  override createDriver(): Driver {
    return new AsyncBusySqliteDriver(this.settings);
  }
}

/** How long a statement waits, in all, for another connection's write lock. */
const BUSY_WAIT_MS = 5000;

/**
 * A statement that meets another connection's lock (SQLITE_BUSY) is tried again after a short
 * timer, up to BUSY_WAIT_MS, so the event loop runs meanwhile (downloads, whose views are
 * committed in batches, go on being served).
 */
class AsyncBusySqliteDriver extends SqliteDriver {
  /**
   * Transactions take the write lock as they begin: one that read first and wrote after
   * could otherwise meet another process's commit in between (SQLITE_BUSY_SNAPSHOT), which no
   * retry of the statement can cure.
   */
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    return {
      executeQuery: async (query) => {
        const deadline = Date.now() + BUSY_WAIT_MS;
        for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
          try {
            return await connection.executeQuery(query);
          } catch (err) {
            if ((err as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) {
              throw err;
            }
            await new Promise((resolve) => setTimeout(resolve, wait));
          }
        }
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
  }
}

export function dialectOf(db: Executor): Dialect {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
}

/**
 * Adds `for update` where the engine locks rows (PostgreSQL; a SQLite writer holds the whole
 * database). Callers order the rows by id: every statement that locks rows of a table locks
 * them in id order, so two transactions cannot wait on each other in a cycle.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function forUpdate<Q extends SelectQueryBuilder<any, any, any>>(db: Executor, query: Q): Q {
  return dialectOf(db) === 'postgres' ? (query.forUpdate() as Q) : query;
}

/**
 * The constraint a unique violation broke (PostgreSQL names it; SQLite names the columns), or
 * null when err is not a unique violation. Repositories turn it into a domain result.
 */
export function uniqueViolation(err: unknown): string | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  if (e.code === '23505') return String(e.constraint ?? '');
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return String(e.message ?? '');
  }
  return null;
}

/**
 * Kysely prepares every query anew; on hot paths (serving a link) preparing costs more than
 * running. Statements are reusable; texts that vary (an in-list of n ids, n rows inserted) are
 * few per call site and bounded (batches of at most 1000), and the cache starts over at 1000.
 */
function cacheStatements(sqlite: BetterSqlite3.Database): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, BetterSqlite3.Statement>();
  sqlite.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      if (cache.size >= 1000) cache.clear();
      statement = prepare(source);
      cache.set(source, statement);
    }
    return statement;
  }) as typeof sqlite.prepare;
}

/** SQL texts run as named (prepared) statements on PostgreSQL, and their names. */
const preparedNames = new Map<string, string>();

/**
 * Marks a compiled query to run as a prepared statement on PostgreSQL: each connection parses
 * and plans it once, then only binds its parameters. For the few queries that run for nearly
 * every request (a link's lookup), where parsing and planning cost about as much as running
 * them; not for queries whose text varies (a server keeps every statement a connection
 * prepared until it closes). SQLite caches every statement already (cacheStatements).
 * Behind PgBouncer in transaction mode this needs PgBouncer 1.21 or later with
 * max_prepared_statements set (docs/DEPLOYMENT.md).
 */
export function prepared<T>(query: CompiledQuery<T>): CompiledQuery<T> {
  if (!preparedNames.has(query.sql)) {
    // Named after the text, so every process gives one text the same name.
    const digest = crypto.createHash('sha256').update(query.sql).digest('hex').slice(0, 24);
    preparedNames.set(query.sql, `upshot_${digest}`);
  }
  return query;
}

/**
 * Kysely's PostgreSQL driver runs client.query(sql, parameters); on every connection the pool
 * makes, a text marked by prepared() goes out as pg's named query instead.
 */
function prepareRegistered(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const [text, values] = args;
      const name = typeof text === 'string' ? preparedNames.get(text) : undefined;
      return name && Array.isArray(values) && args.length === 2
        ? query({ name, text, values })
        : query(...args);
    };
  });
}
