/**
 * Work done after a response (digests, thumbnails, later email): the one helper for it. A task
 * is a row (kind, subject) written with the change that needs it, so a crash loses nothing; a
 * runner in any instance takes it with a lease, and every failure is logged with the upload or
 * user id it concerns and recorded on the row (attempts, last error), to be retried with
 * backoff and, after the last attempt, left alone: one bad item never holds up the others.
 */
import type { Logger } from '../lib/logger.ts';
import type { Clock } from '../lib/clock.ts';
import type { TasksRepository } from './tasks-repository.ts';

export const MAX_ATTEMPTS = 5;
/** Wait before attempt n + 1 (after the first failure: a minute). */
const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000];
/**
 * Another runner may take a task whose runner has not renewed its lease for this long (it
 * died). A runner renews it every quarter of that while the task runs (hashing a large file
 * read back from S3 can take longer than the lease).
 */
export const LEASE_MS = 10 * 60_000;
const BATCH = 20;

export type TaskHandler = {
  /** The log field the subject id goes in. */
  subject: 'uploadId' | 'userId';
  run: (subjectId: string) => Promise<void>;
};

export type Background = ReturnType<typeof createBackground>;

export function createBackground(deps: {
  tasks: TasksRepository;
  clock: Clock;
  log: Logger;
  /** How often a running task's lease is renewed (tests shorten it). */
  renewEveryMs?: number;
}) {
  const { tasks, clock, log } = deps;
  const renewEveryMs = deps.renewEveryMs ?? LEASE_MS / 4;
  const handlers = new Map<string, TaskHandler>();
  let running: Promise<number> | null = null;
  let again = false;
  let closed = false;

  async function runOne(task: { id: string; kind: string; subject_id: string; attempts: number }) {
    const handler = handlers.get(task.kind);
    const now = clock.now();
    if (!handler) return false;
    const leased = await tasks.lease(task.id, now.toISOString(), iso(now.getTime() + LEASE_MS));
    if (!leased) return false; // another runner has it
    const attempt = task.attempts + 1;
    const fields = { task: task.kind, [handler.subject]: task.subject_id, attempt };
    const renewal = setInterval(() => {
      tasks
        .renew(task.id, iso(clock.now().getTime() + LEASE_MS))
        .catch((err: unknown) => log.warn({ ...fields, err }, 'background task lease not renewed'));
    }, renewEveryMs);
    try {
      try {
        await handler.run(task.subject_id);
      } finally {
        clearInterval(renewal);
      }
      await tasks.remove(task.id);
    } catch (err) {
      const last = attempt >= MAX_ATTEMPTS;
      const delay = BACKOFF_MS[Math.min(attempt - 1, BACKOFF_MS.length - 1)] ?? 0;
      await tasks.fail(task.id, describe(err), iso(clock.now().getTime() + delay));
      if (last) log.error({ ...fields, err }, 'background task failed for the last time');
      else log.warn({ ...fields, err }, 'background task failed; it will be retried');
    }
    return true;
  }

  /** Runs every task that is due now, one at a time; answers how many ran. */
  async function drainOnce(): Promise<number> {
    let ran = 0;
    for (;;) {
      const due = await tasks.due(clock.now().toISOString(), MAX_ATTEMPTS, BATCH, [
        ...handlers.keys(),
      ]);
      let progressed = false;
      for (const task of due) {
        if (closed) return ran;
        try {
          if (await runOne(task)) {
            ran += 1;
            progressed = true;
          }
        } catch (err) {
          // The bookkeeping itself failed (database unreachable): try again on the next run.
          log.error({ err, task: task.kind, subjectId: task.subject_id }, 'background task error');
        }
      }
      if (due.length < BATCH || !progressed) return ran;
    }
  }

  function drain(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        total += await drainOnce();
      } while (again && !closed);
      return total;
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    register(kind: string, handler: TaskHandler): void {
      handlers.set(kind, handler);
    },

    /** Runs due tasks soon, off the current request (after an upload, for example). */
    kick(): void {
      if (closed) return;
      setImmediate(() => {
        drain().catch((err: unknown) => log.error({ err }, 'background tasks failed'));
      });
    },

    /** Runs every due task now; the periodic job and tests await it. */
    drain,

    /** Stops taking tasks and waits for the one running. */
    async close(): Promise<void> {
      closed = true;
      await running?.catch(() => undefined);
    },
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function describe(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 1000);
}
