import { describe, expect, it } from 'vitest';
import { breakdownRows, countOfType } from './breakdown.ts';

describe('countOfType', () => {
  it('reads a type from the breakdown, 0 when it is absent', () => {
    const breakdown = [
      { type: 'documents', count: 4 },
      { type: 'images', count: 7 },
    ];
    expect(countOfType(breakdown, 'images')).toBe(7);
    expect(countOfType(breakdown, 'videos')).toBe(0);
    expect(countOfType([], 'images')).toBe(0);
  });
});

describe('breakdownRows', () => {
  it('rounds each share to a whole percentage', () => {
    const rows = breakdownRows([
      { type: 'images', count: 2 },
      { type: 'documents', count: 1 },
    ]);
    expect(rows).toEqual([
      { type: 'images', count: 2, percent: 67 },
      { type: 'documents', count: 1, percent: 33 },
    ]);
  });

  it('puts the largest first, ties in the filter order with other last, and drops empty types', () => {
    const rows = breakdownRows([
      { type: 'other', count: 1 },
      { type: 'archives', count: 1 },
      { type: 'videos', count: 0 },
      { type: 'documents', count: 5 },
      { type: 'images', count: 1 },
    ]);
    expect(rows.map((row) => [row.type, row.percent])).toEqual([
      ['documents', 63],
      ['images', 13],
      ['archives', 13],
      ['other', 13],
    ]);
  });

  it('has no rows when nothing was uploaded', () => {
    expect(breakdownRows([])).toEqual([]);
    expect(breakdownRows([{ type: 'images', count: 0 }])).toEqual([]);
  });
});
