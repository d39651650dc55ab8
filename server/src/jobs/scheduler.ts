/**
 * Periodic housekeeping. With several instances over one database each job runs on one of
 * them at a time: an instance runs a job only once it holds the job's lease row (job_leases)
 * until the next run is due. The holder renews its own lease on its next tick; the others
 * skip the job while the lease lasts, and take it over once it runs out (its holder stopped or
 * crashed). Every job stays safe to run twice (a run longer than its interval can overlap one
 * on another instance).
 */
import crypto from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import type { Logger } from '../lib/logger.ts';

export type Job = { name: string; intervalMs: number; run: () => Promise<unknown> };

export type JobOutcome = 'ran' | 'failed' | 'skipped';

export type JobRunner = ReturnType<typeof createJobRunner>;

export function createJobRunner(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  /** This instance's name in the lease rows; a random id by default. */
  holder?: string;
  /** Told of every run this instance made (for the metrics). */
  onRun?: (job: string, outcome: 'ran' | 'failed', seconds: number) => void;
}) {
  const { db, clock, log } = deps;
  const holder = deps.holder ?? crypto.randomUUID();
  const running = new Map<string, Promise<JobOutcome>>();

  /** Takes or renews the job's lease until its next run is due; false: another holds it. */
  async function takeLease(job: Job): Promise<boolean> {
    const now = clock.now();
    const until = new Date(now.getTime() + job.intervalMs).toISOString();
    const result = await db
      .insertInto('job_leases')
      .values({ name: job.name, holder, expires_at: until })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ holder, expires_at: until })
          .where((eb) =>
            eb.or([
              eb('job_leases.holder', '=', holder),
              eb('job_leases.expires_at', '<=', now.toISOString()),
            ]),
          ),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async function runLeased(job: Job): Promise<JobOutcome> {
    try {
      if (!(await takeLease(job))) return 'skipped';
    } catch (err) {
      log.error({ err, job: job.name }, 'job lease could not be taken');
      return 'failed';
    }
    const started = performance.now();
    try {
      await job.run();
      deps.onRun?.(job.name, 'ran', (performance.now() - started) / 1000);
      return 'ran';
    } catch (err) {
      deps.onRun?.(job.name, 'failed', (performance.now() - started) / 1000);
      log.error({ err, job: job.name }, 'job failed');
      return 'failed';
    }
  }

  /** One tick of one job: runs it when this instance gets its lease and is not running it. */
  function tick(job: Job): Promise<JobOutcome> {
    if (running.has(job.name)) return Promise.resolve('skipped');
    const run = runLeased(job).finally(() => running.delete(job.name));
    running.set(job.name, run);
    return run;
  }

  /** Ticks every job now and then every interval; the answer stops the timers. */
  function start(jobs: Job[]): () => Promise<void> {
    const timers = jobs.map((job) => {
      void tick(job);
      const timer = setInterval(() => void tick(job), job.intervalMs);
      timer.unref();
      return timer;
    });
    /** Stops the timers and waits for the runs in progress. */
    return async () => {
      timers.forEach((t) => clearInterval(t));
      await Promise.all(running.values());
    };
  }

  return { holder, tick, start };
}
