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
