/**
 * Views gathered in memory and committed in batches: a download never waits for the database
 * to count it (a commit per request, or even per turn of the event loop, was the largest cost
 * of serving small files). Views are committed at most `intervalMs` after the first one of a
 * batch, on `flush()` and on `close()`. A batch that fails to commit is kept, merged with the
 * views counted meanwhile, and tried again after a growing pause; every failure is logged.
 * What only this process knows is lost if it dies without closing: at most one interval's views.
 */
export type ViewCounter = ReturnType<typeof createViewCounter>;

export function createViewCounter(deps: {
  /** Commits the counts (upload id to views) in one transaction, all or nothing. */
  commit: (counts: ReadonlyMap<string, number>) => Promise<void>;
  onError: (err: unknown, context: Record<string, unknown>) => void;
  intervalMs: number;
  /** The longest pause between attempts while commits fail. */
  maxRetryMs: number;
}) {
  const { commit, onError, intervalMs, maxRetryMs } = deps;
  let pending = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  /** The last flush started: flushes run one at a time, in order. */
  let last: Promise<void> = Promise.resolve();
  let failures = 0;
  let closed = false;

  const total = (counts: ReadonlyMap<string, number>) => {
    let n = 0;
    for (const v of counts.values()) n += v;
    return n;
  };

  function arm(ms: number): void {
    if (timer || closed) return;
    timer = setTimeout(tick, ms);
    // Pending views never keep the process alive; close() commits them.
    timer.unref();
  }

  function tick(): void {
    timer = null;
    flush().then(
      () => {
        if (pending.size > 0) arm(intervalMs);
      },
      (err: unknown) => {
        onError(err, {
          action: 'count views',
          views: total(pending),
          uploads: pending.size,
          attempt: failures,
        });
        arm(Math.min(intervalMs * 2 ** failures, maxRetryMs));
      },
    );
  }

  /**
   * Commits every view counted before the call; rejects when the commit fails (the views are
   * kept for the next attempt).
   */
  function flush(): Promise<void> {
    const run = last
      .catch(() => undefined)
      .then(async () => {
        if (pending.size === 0) return;
        const batch = pending;
        pending = new Map();
        try {
          await commit(batch);
          failures = 0;
        } catch (err) {
          for (const [id, n] of batch) pending.set(id, (pending.get(id) ?? 0) + n);
          failures++;
          throw err;
        }
      });
    last = run;
    return run;
  }

  return {
    /** Counts one view of the upload; committed within intervalMs. */
    count(id: string): void {
      pending.set(id, (pending.get(id) ?? 0) + 1);
      if (closed) {
        // A download that finished after close() began: commit it on its own.
        flush().catch((err: unknown) => onError(err, { action: 'count views', uploadId: id }));
        return;
      }
      arm(intervalMs);
    },

    flush,

    /**
     * Stops the timer and commits what is pending, trying `attempts` times; views that still
     * cannot be committed are logged as lost.
     */
    async close(attempts = 3): Promise<void> {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      for (let attempt = 1; ; attempt++) {
        try {
          await flush();
          return;
        } catch (err) {
          if (attempt >= attempts) {
            onError(err, {
              action: 'count views at shutdown',
              lostViews: total(pending),
              uploadIds: [...pending.keys()].slice(0, 100),
            });
            pending = new Map();
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, intervalMs));
        }
      }
    },
  };
}
