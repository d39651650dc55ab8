/**
 * The view counter's batching on its own (a recorded commit, fake timers): when it commits,
 * what it keeps when a commit fails, and what close() does. The views through HTTP and the
 * database are in serving/views.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createViewCounter } from './view-counter.ts';

const INTERVAL = 250;
const MAX_RETRY = 4000;

function setup() {
  const commits: Record<string, number>[] = [];
  const errors: Record<string, unknown>[] = [];
  let failing: Error | null = null;
  const counter = createViewCounter({
    commit: async (counts) => {
      if (failing) throw failing;
      commits.push(Object.fromEntries(counts));
    },
    onError: (_err, context) => errors.push(context),
    intervalMs: INTERVAL,
    maxRetryMs: MAX_RETRY,
  });
  return {
    counter,
    commits,
    errors,
    fail: (err: Error | null) => {
      failing = err;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the view counter', () => {
  it('commits the views of one interval together, an interval after the first', async () => {
    const { counter, commits } = setup();
    counter.count('a');
    counter.count('b');
    await vi.advanceTimersByTimeAsync(INTERVAL - 1);
    counter.count('a');
    expect(commits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(commits).toEqual([{ a: 2, b: 1 }]);
    // Nothing pending: no timer, no empty commit.
    await vi.advanceTimersByTimeAsync(INTERVAL * 10);
    expect(commits).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    counter.count('c');
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(commits).toEqual([{ a: 2, b: 1 }, { c: 1 }]);
  });

  it('commits at once on flush(), everything counted before it', async () => {
    const { counter, commits } = setup();
    counter.count('a');
    await counter.flush();
    expect(commits).toEqual([{ a: 1 }]);
    await counter.flush();
    expect(commits).toHaveLength(1);
  });

  it('keeps the views of a failed commit, logs it, and retries with growing pauses', async () => {
    const { counter, commits, errors, fail } = setup();
    fail(new Error('database down'));
    counter.count('a');
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(errors).toEqual([{ action: 'count views', views: 1, uploads: 1, attempt: 1 }]);
    // Views counted meanwhile join the kept ones.
    counter.count('a');
    counter.count('b');
    await vi.advanceTimersByTimeAsync(INTERVAL * 2);
    expect(errors).toHaveLength(2);
    expect(errors[1]).toMatchObject({ views: 3, attempt: 2 });
    await vi.advanceTimersByTimeAsync(INTERVAL * 4 - 1);
    expect(errors).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(errors).toHaveLength(3);
    // The pause stops growing at maxRetryMs.
    for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(MAX_RETRY);
    expect(errors.length).toBeGreaterThan(5);
    fail(null);
    await vi.advanceTimersByTimeAsync(MAX_RETRY);
    expect(commits).toEqual([{ a: 2, b: 1 }]);
    // Back to the short interval.
    const logged = errors.length;
    counter.count('c');
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(commits).toEqual([{ a: 2, b: 1 }, { c: 1 }]);
    expect(errors).toHaveLength(logged);
  });

  it('rejects a flush() whose commit fails, keeping its views for the next', async () => {
    const { counter, commits, fail } = setup();
    fail(new Error('database down'));
    counter.count('a');
    await expect(counter.flush()).rejects.toThrow('database down');
    fail(null);
    await counter.flush();
    expect(commits).toEqual([{ a: 1 }]);
  });

  it('commits what is pending on close(), and a view counted after it on its own', async () => {
    const { counter, commits } = setup();
    counter.count('a');
    await counter.close();
    expect(commits).toEqual([{ a: 1 }]);
    expect(vi.getTimerCount()).toBe(0);
    counter.count('b');
    await vi.advanceTimersByTimeAsync(0);
    expect(commits).toEqual([{ a: 1 }, { b: 1 }]);
  });

  it('tries close() a few times, then logs the views it could not commit', async () => {
    const { counter, commits, errors, fail } = setup();
    fail(new Error('database down'));
    counter.count('a');
    counter.count('a');
    const closed = counter.close(3);
    await vi.advanceTimersByTimeAsync(INTERVAL * 2);
    await closed;
    expect(commits).toEqual([]);
    expect(errors).toEqual([{ action: 'count views at shutdown', lostViews: 2, uploadIds: ['a'] }]);
  });
});
