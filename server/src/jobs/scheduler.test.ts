/**
 * Periodic jobs over one database shared by several instances: each job runs on one of them at
 * a time, its holder keeps it, a lease that runs out (its holder crashed) passes to another,
 * and a failing run is logged and counted, never thrown at the timer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { createJobRunner, type Job } from './scheduler.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

function recorder() {
  const errors: Record<string, unknown>[] = [];
  const runs: [string, string][] = [];
  const log = { info: () => {}, warn: () => {}, error: (o: object) => errors.push({ ...o }) };
  return { errors, runs, log, onRun: (job: string, outcome: string) => runs.push([job, outcome]) };
}

function instance(holder: string) {
  const seen = recorder();
  const runner = createJobRunner({
    db: ctx.handle.db,
    clock: ctx.clock,
    log: seen.log,
    holder,
    onRun: seen.onRun,
  });
  return { runner, ...seen };
}

function countingJob(name: string, intervalMs = 60_000) {
  let runs = 0;
  const job: Job = {
    name,
    intervalMs,
    run: async () => {
      runs += 1;
    },
  };
  return { job, runs: () => runs };
}

describe('job leases', () => {
  it('runs a job on one instance at a time; the holder keeps running it', async () => {
    const a = instance('a');
    const b = instance('b');
    const { job, runs } = countingJob('sweep-one');

    expect(await a.runner.tick(job)).toBe('ran');
    expect(await b.runner.tick(job)).toBe('skipped');
    // Its next tick comes an interval later, when its own lease is just running out.
    ctx.clock.advance(59_000);
    expect(await b.runner.tick(job)).toBe('skipped');
    expect(await a.runner.tick(job)).toBe('ran');
    expect(runs()).toBe(2);
    expect(a.runs).toEqual([
      ['sweep-one', 'ran'],
      ['sweep-one', 'ran'],
    ]);
    expect(b.runs).toEqual([]);
  });

  it('takes over a lease that ran out (its holder crashed), and the old holder then skips', async () => {
    const a = instance('a2');
    const b = instance('b2');
    const { job, runs } = countingJob('sweep-two');
    expect(await a.runner.tick(job)).toBe('ran');
    ctx.clock.advance(60_001);
    expect(await b.runner.tick(job)).toBe('ran');
    expect(await a.runner.tick(job)).toBe('skipped');
    expect(runs()).toBe(2);
    const rows = await ctx.handle.db
      .selectFrom('job_leases')
      .selectAll()
      .where('name', '=', 'sweep-two')
      .execute();
    expect(rows.map((r) => r.holder)).toEqual(['b2']);
  });

  it('leases each job by its own name', async () => {
    const a = instance('a3');
    const b = instance('b3');
    const first = countingJob('first');
    const second = countingJob('second');
    expect(await a.runner.tick(first.job)).toBe('ran');
    expect(await b.runner.tick(second.job)).toBe('ran');
    expect(await b.runner.tick(first.job)).toBe('skipped');
    expect(await a.runner.tick(second.job)).toBe('skipped');
  });

  it('does not start a job again while its run in this instance is still going', async () => {
    const a = instance('a4');
    let release: () => void = () => {};
    let started = 0;
    const job: Job = {
      name: 'slow',
      intervalMs: 1000,
      run: () => {
        started += 1;
        return new Promise<void>((resolve) => (release = resolve));
      },
    };
    const first = a.runner.tick(job);
    ctx.clock.advance(5000);
    expect(await a.runner.tick(job)).toBe('skipped');
    // Wait for the first run to have begun (its lease taken), then let it end.
    await expect.poll(() => started).toBe(1);
    release();
    expect(await first).toBe('ran');
  });

  it('logs and counts a failing run, and runs it again on the next tick', async () => {
    const a = instance('a5');
    let attempt = 0;
    const job: Job = {
      name: 'flaky',
      intervalMs: 1000,
      run: async () => {
        attempt += 1;
        if (attempt === 1) throw new Error('store unreachable');
      },
    };
    expect(await a.runner.tick(job)).toBe('failed');
    expect(a.errors).toEqual([expect.objectContaining({ job: 'flaky' })]);
    ctx.clock.advance(1000);
    expect(await a.runner.tick(job)).toBe('ran');
    expect(a.runs).toEqual([
      ['flaky', 'failed'],
      ['flaky', 'ran'],
    ]);
  });

  it('stop clears the timers and waits for the run in progress', async () => {
    const a = instance('a6');
    let release: (() => void) | null = null;
    const job: Job = {
      name: 'stoppable',
      intervalMs: 60_000,
      run: () => new Promise<void>((resolve) => (release = resolve)),
    };
    const stop = a.runner.start([job]);
    await expect.poll(() => release !== null).toBe(true);
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    (release as unknown as () => void)();
    await stopping;
    expect(a.runs).toEqual([['stoppable', 'ran']]);
  });
});
