import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatDate, formatDay } from './format.ts';

describe('formatBytes', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1024 ** 2, '1 MB'],
    [1.23456 * 1024 ** 3, '1.23 GB'],
    [10 * 1024 ** 3, '10 GB'],
    [2.5 * 1024 ** 4, '2.5 TB'],
    [3 * 1024 ** 5, '3072 TB'],
  ])('formats %d as %s', (bytes, expected) => {
    expect(formatBytes(bytes)).toBe(expected);
  });

  it('takes the number of decimals', () => {
    expect(formatBytes(1234567, 0)).toBe('1 MB');
    expect(formatBytes(1234567, 3)).toBe('1.177 MB');
  });
});

describe('formatDate', () => {
  it('formats en-US with short month, numeric day, year, hour and minute', () => {
    // Built from local components so the expectation holds in any time zone.
    expect(formatDate(new Date(2025, 2, 5, 14, 7))).toBe('Mar 5, 2025, 2:07 PM');
    expect(formatDate(new Date(2024, 11, 31, 9, 30).toISOString())).toBe('Dec 31, 2024, 9:30 AM');
  });

  it('returns an empty string for an invalid date', () => {
    expect(formatDate('not a date')).toBe('');
  });
});

describe('formatDay', () => {
  it('formats a UTC calendar day with short month and numeric day, whatever the time zone', () => {
    expect(formatDay('2025-11-03')).toBe('Nov 3');
    expect(formatDay('2024-12-31')).toBe('Dec 31');
    expect(formatDay('2025-01-01')).toBe('Jan 1');
  });

  it('returns what it was given when it is not a day', () => {
    expect(formatDay('soon')).toBe('soon');
  });
});

describe('formatCount', () => {
  it('groups digits the en-US way', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(12345)).toBe('12,345');
  });
});
