/** The small bodies kept in memory: bounded in bytes, the least recently used out first. */
import { describe, expect, it } from 'vitest';
import { createBodyCache } from './body-cache.ts';

const body = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe('the body cache', () => {
  it('keeps bodies up to its size in bytes, the oldest unused out first', () => {
    const cache = createBodyCache(100);
    cache.set('a', body(40));
    cache.set('b', body(40));
    expect(cache.size).toEqual({ entries: 2, bytes: 80 });
    cache.set('c', body(40));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.length).toBe(40);
    expect(cache.get('c')?.length).toBe(40);
    expect(cache.size).toEqual({ entries: 2, bytes: 80 });
  });

  it('gives a body used since it was kept a second chance', () => {
    const cache = createBodyCache(100);
    cache.set('a', body(40));
    cache.set('b', body(40));
    cache.get('a');
    cache.set('c', body(40)); // b goes: a was used
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    // Both marked now: the oldest mark is cleared first, then the unmarked oldest goes.
    cache.set('d', body(40));
    expect(cache.size).toEqual({ entries: 2, bytes: 80 });
    expect(cache.get('d')).toBeDefined();
  });

  it('never holds a body larger than itself, nor the same key twice', () => {
    const cache = createBodyCache(100);
    cache.set('big', body(101));
    expect(cache.get('big')).toBeUndefined();
    cache.set('a', body(10, 1));
    cache.set('a', body(10, 2));
    expect(cache.get('a')?.[0]).toBe(1);
    expect(cache.size).toEqual({ entries: 1, bytes: 10 });
    cache.set('whole', body(100));
    expect(cache.size).toEqual({ entries: 1, bytes: 100 });
  });
});
