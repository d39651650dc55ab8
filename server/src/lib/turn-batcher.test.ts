import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { turnBatcher } from './turn-batcher.ts';

describe('turnBatcher', () => {
  it('flushes the items of one turn together, and later items in a batch of their own', async () => {
    const batches: number[][] = [];
    const add = turnBatcher<number>(async (items) => {
      batches.push([...items]);
    });
    const first = [add(1), add(2), add(3)];
    expect(batches).toEqual([]); // nothing is flushed before the turn ends
    await Promise.all(first);
    expect(batches).toEqual([[1, 2, 3]]);
    await Promise.all([add(4), add(5)]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('settles an add only once its batch has been flushed', async () => {
    let release = () => {};
    const flushed: number[] = [];
    const add = turnBatcher<number>(async (items) => {
      await new Promise<void>((resolve) => (release = resolve));
      flushed.push(...items);
    });
    let settled = false;
    const pending = add(1).then(() => (settled = true));
    await nextTurn();
    await nextTurn();
    expect(settled).toBe(false);
    release();
    await pending;
    expect(flushed).toEqual([1]);
  });

  it('runs one flush at a time; items added meanwhile wait and go together', async () => {
    const releases: (() => void)[] = [];
    const batches: number[][] = [];
    let running = 0;
    let mostAtOnce = 0;
    const add = turnBatcher<number>(async (items) => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      batches.push([...items]);
      running--;
    });
    const first = add(1);
    await nextTurn();
    const later = [add(2)];
    await nextTurn();
    later.push(add(3));
    await nextTurn();
    expect(releases).toHaveLength(1); // the second batch waits for the first
    releases[0]!();
    await first;
    await nextTurn();
    expect(releases).toHaveLength(2);
    releases[1]!();
    await Promise.all(later);
    expect(batches).toEqual([[1], [2, 3]]);
    expect(mostAtOnce).toBe(1);
  });

  it("rejects every add of a failed batch, and the next batch doesn't inherit the failure", async () => {
    let fail = true;
    const add = turnBatcher<string>(async () => {
      if (fail) throw new Error('disk full');
    });
    const results = await Promise.allSettled([add('a'), add('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(add('c')).resolves.toBeUndefined();
  });
});
