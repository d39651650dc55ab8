/**
 * The links an instance serves, kept in its memory on PostgreSQL, so a download needs no
 * round trip to the database, and yet a deleted upload, a link moved or a change to what
 * serving reads stops being served by every instance before the change is answered.
 *
 * How (tables and triggers in db/migrations/0011-link-changes.ts):
 * - Every committed change to uploads' served columns or to slugs adds one to a count and
 *   notifies channel upshot_links. Each instance listens on a connection of its own and, on a
 *   notification, reads the count, drops everything it keeps if the count moved, and acks it.
 * - An instance answers from memory only while it holds a lease: a row saying until when (by
 *   the database's clock) and which change it acked last. It renews the lease every second on
 *   the listening connection; the database extends it only if the ack is the count now (a
 *   renewal refused makes the instance read the count and catch up, so it keeps up even where
 *   notifications do not arrive).
 *   Locally the lease ends LEASE_MS (less a margin) after the renewal was sent, never later
 *   than the database's `until`, so an instance whose connection broke, whose process froze or
 *   whose notifications lag stops answering from memory by itself.
 * - Whoever changed links (uploads/service.ts, admin's user deletion) calls `settled()` after
 *   the commit: it waits until every instance holding a lease has acked the change, or for one
 *   lease (LEASE_MS) on its own clock, by when every lease renewed before the change has ended.
 *   Normally a few milliseconds; LEASE_MS when an instance is frozen, cut off or just killed.
 * - A lookup sent before a change was dropped may read the old row: what it finds is kept only
 *   if nothing was dropped between the lookup's start and its answer (`version`).
 *
 * On SQLite nothing is kept (`noLinkCache`): the lookup runs in the process, one per turn of
 * the event loop, and costs about what keeping it would.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../../db/database.ts';
import type { Logger } from '../../lib/logger.ts';
import { within } from '../../lib/within.ts';
import type { LinkRow } from './repository.ts';

/** How long a lease lasts from its renewal. */
export const LEASE_MS = 3000;
/** How often a lease is renewed. */
const RENEW_EVERY_MS = 1000;
/** Taken off the local end of a lease: clocks that run at slightly different rates. */
const LEASE_MARGIN_MS = 250;
/** The most links kept; the oldest kept goes first. */
export const MAX_ENTRIES = 10_000;
/**
 * A renewal or the listening connection's setup that takes longer counts as a lost connection,
 * opened anew. Longer than a lease: a stalled connection is the lease's to catch.
 */
const QUERY_TIMEOUT_MS = LEASE_MS + 2000;
/** The pause before the listening connection is opened again after it was lost. */
const RECONNECT_MS = 1000;
/**
 * A lease that ran out longer ago than this (by the database's clock) belongs to an instance
 * gone for good: `settled()` does not wait for its ack. Below it, a step of the database's
 * clock cannot make a live lease look ended.
 */
const GONE_AFTER_S = 10;
export const CHANNEL = 'upshot_links';
/** The listening connection's application_name. */
export const LISTENER_NAME = 'upshot-link-cache';

export type LinkCache = {
  /** The link's row when this instance may answer from memory and keeps it. */
  get(slug: string): LinkRow | undefined;
  /** Taken before a lookup is sent; `put` keeps the row only if nothing was dropped since. */
  version(): number;
  put(version: number, slug: string, row: LinkRow): void;
  /** After a change to links has committed: resolves once no instance answers from before it. */
  settled(): Promise<void>;
  /** Opens the listening connection (once the app is built: a failed build leaves nothing open). */
  start(): void;
  /** Lookups answered from memory, links kept, and whether this instance holds a lease now. */
  stats(): { hits: number; entries: number; active: boolean };
  close(): Promise<void>;
};

/** SQLite's: nothing kept, nothing to wait for. */
export const noLinkCache: LinkCache = {
  get: () => undefined,
  version: () => 0,
  put: () => {},
  settled: async () => {},
  start: () => {},
  stats: () => ({ hits: 0, entries: 0, active: false }),
  close: async () => {},
};

/**
 * What an instance keeps, and the rules of keeping it, apart from the connection: the local
 * lease, the last change acked, and the version that a drop moves on.
 */
export class LinkMemory {
  private readonly entries = new Map<string, LinkRow>();
  private leaseEnd = -Infinity;
  private current = 0;
  hits = 0;
  /** The last change this instance dropped its memory for. */
  acked = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  get(slug: string): LinkRow | undefined {
    if (this.now() >= this.leaseEnd) {
      if (this.entries.size > 0) this.drop();
      return undefined;
    }
    const row = this.entries.get(slug);
    if (row) this.hits++;
    return row;
  }

  version(): number {
    return this.current;
  }

  put(version: number, slug: string, row: LinkRow): void {
    if (version !== this.current || this.now() >= this.leaseEnd) return;
    if (this.entries.size >= MAX_ENTRIES && !this.entries.has(slug)) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(slug, row);
  }

  /**
   * The count read now: true when it is not the one acked (a newer change, or a count that went
   * back: a database restored, or failed over to a standby behind), and all is dropped.
   */
  changed(seq: number): boolean {
    if (seq === this.acked) return false;
    this.acked = seq;
    this.drop();
    return true;
  }

  /** The database extended the lease by a renewal sent at `sentAt`. */
  renewed(sentAt: number): void {
    this.leaseEnd = Math.max(this.leaseEnd, sentAt + LEASE_MS - LEASE_MARGIN_MS);
  }

  /** The listening connection is gone, or the instance stops: no lease, nothing kept. */
  lost(): void {
    this.leaseEnd = -Infinity;
    this.drop();
  }

  active(): boolean {
    return this.now() < this.leaseEnd;
  }

  size(): number {
    return this.entries.size;
  }

  private drop(): void {
    this.entries.clear();
    this.current++;
  }
}

/** PostgreSQL's: listens on a connection of its own to databaseUrl, renews its lease on it. */
export function createLinkCache(deps: { db: Db; databaseUrl: string; log: Logger }): LinkCache {
  const { db, log } = deps;
  const instance = crypto.randomUUID();
  const memory = new LinkMemory();
  let client: pg.Client | null = null;
  let closed = false;
  let reconnect: NodeJS.Timeout | undefined;
  /** Whether the listening connection got as far as listening (to warn once when it is lost). */
  let listening = false;

  const lose = (which: pg.Client, err: unknown) => {
    if (client !== which) return;
    client = null;
    memory.lost();
    which.removeAllListeners('notification');
    which.end().catch(() => undefined);
    if (closed) return;
    if (listening) {
      log.warn({ err }, 'link cache: listening connection lost; links are read from the database');
    }
    listening = false;
    reconnect = setTimeout(() => void connect(), RECONNECT_MS);
    reconnect.unref();
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const c = new pg.Client({
      connectionString: deps.databaseUrl,
      // Named in pg_stat_activity, for an operator (and the tests that end it).
      application_name: LISTENER_NAME,
      query_timeout: QUERY_TIMEOUT_MS,
      connectionTimeoutMillis: QUERY_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client = c;
    c.on('error', (err) => lose(c, err));
    c.on('end', () => lose(c, new Error('connection ended')));
    // A notification only says "read the count": its payload is not trusted (any role may
    // NOTIFY), the count is read, then what is kept is dropped, then the count is acked.
    c.on('notification', (message) => {
      if (client === c && message.channel === CHANNEL) catchUp();
    });
    try {
      await c.connect();
      await c.query(`listen ${CHANNEL}`);
      if (client !== c) return;
      listening = true;
      // The count is read after listening: every change committed later is notified. Nothing
      // is kept from before (lose() dropped it), so catching up is all a start needs.
      catchUp();
    } catch (err) {
      lose(c, err);
    }
  }

  /** Reads the count, drops what is kept if it moved, and renews (acks); one at a time. */
  const catchUp = oneAtATime(async () => {
    const c = client;
    if (!c || closed) return;
    try {
      const { rows } = await c.query<{ seq: string }>('select seq from link_changes where id = 1');
      const [row] = rows;
      if (!row) throw new Error('link_changes has no row');
      if (client !== c) return;
      memory.changed(Number(row.seq));
      renew();
    } catch (err) {
      lose(c, err);
    }
  });

  /** Renews the lease with the ack of now; one at a time (one asked for meanwhile runs after). */
  const renew = oneAtATime(async () => {
    const c = client;
    if (!c || closed) return;
    const acked = memory.acked;
    const sentAt = performance.now();
    try {
      const { rows } = await c.query<{ renewed: boolean }>(
        'select upshot_renew_link_lease($1, $2, $3) as renewed',
        [instance, acked, LEASE_MS / 1000],
      );
      if (client !== c) return;
      if (rows[0]?.renewed) memory.renewed(sentAt);
      // Refused: a change this instance has not caught up with (its notification on the way,
      // or lost to a pooler): the count is read now.
      else catchUp();
    } catch (err) {
      lose(c, err);
    }
  });

  let timer: NodeJS.Timeout | undefined;

  return {
    start() {
      if (timer || closed) return;
      timer = setInterval(renew, RENEW_EVERY_MS);
      timer.unref();
      void connect();
    },
    get: (slug) => memory.get(slug),
    version: () => memory.version(),
    put: (version, slug, row) => memory.put(version, slug, row),

    async settled() {
      // Every lease that answers from before the change was renewed before the change
      // committed, so it ends, by its instance's clock, within LEASE_MS of now: that bound is
      // kept here on this clock, not on the database's (whose clock may step). `until` only
      // leaves out instances gone for a while (killed, their lease not yet cleared); an ack
      // above the count now is one from before the count went back.
      const started = performance.now();
      const leasesEnded = () => performance.now() - started >= LEASE_MS;
      try {
        const [counted] = (
          await sql<{ seq: string }>`select seq from link_changes where id = 1`.execute(db)
        ).rows;
        const seq = Number(counted!.seq);
        for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
          const [row] = (
            await sql<{ waiting: string }>`select count(*) as waiting from link_cache_leases
              where (acked < ${seq} or acked > (select seq from link_changes where id = 1))
                and until > now() - ${sql.raw(`interval '${GONE_AFTER_S} seconds'`)}`.execute(db)
          ).rows;
          if (Number(row!.waiting) === 0 || leasesEnded()) return;
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      } catch (err) {
        // The change is made and stays made: its request is answered as done, once every
        // lease that could answer from before it has ended.
        log.warn({ err }, 'link cache: could not read the acks; waiting the leases out');
        const left = LEASE_MS - (performance.now() - started);
        if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      }
    },

    stats: () => ({ hits: memory.hits, entries: memory.size(), active: memory.active() }),

    async close() {
      closed = true;
      clearInterval(timer);
      clearTimeout(reconnect);
      memory.lost();
      const c = client;
      client = null;
      // Gone from the leases, so no change waits for this instance (through the pool: the
      // listening connection may be down or stalled).
      if (timer) {
        await within(
          sql`delete from link_cache_leases where instance = ${instance}`.execute(db),
          QUERY_TIMEOUT_MS,
        ).catch(() => undefined);
      }
      if (c) await within(c.end(), QUERY_TIMEOUT_MS).catch(() => undefined);
    },
  };
}

/** Runs work one at a time: a call while it runs makes it run once more after (work never rejects). */
function oneAtATime(work: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void work().finally(() => {
      running = false;
      if (again) {
        again = false;
        run();
      }
    });
  };
  return run;
}
