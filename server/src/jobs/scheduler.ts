/** Periodic housekeeping. Each job is safe to run on several instances at once. */
import type { Logger } from '../lib/logger.ts';

export type Job = { name: string; intervalMs: number; run: () => Promise<unknown> };

export function startJobs(jobs: Job[], log: Logger): () => void {
  const timers = jobs.map((job) => {
    const tick = () =>
      job.run().catch((err: unknown) => log.error({ err, job: job.name }, 'job failed'));
    void tick();
    const timer = setInterval(tick, job.intervalMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach((t) => clearInterval(t));
}
