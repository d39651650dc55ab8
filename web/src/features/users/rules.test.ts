import { describe, expect, it } from 'vitest';
import { maskToken, storageUsage } from './rules.ts';

describe('storageUsage', () => {
  it('gives the percentage to one decimal and the bar width', () => {
    expect(storageUsage(0, 1024)).toEqual({ percent: '0.0%', bar: 0 });
    expect(storageUsage(1, 3).percent).toBe('33.3%');
    expect(storageUsage(1, 3).bar).toBeCloseTo(33.333, 3);
    expect(storageUsage(999, 1000).percent).toBe('99.9%');
    expect(storageUsage(1024, 1024)).toEqual({ percent: '100.0%', bar: 100 });
  });

  it('caps the bar at 100% over quota, while the percentage says how far over', () => {
    expect(storageUsage(2500, 1000)).toEqual({ percent: '250.0%', bar: 100 });
  });

  it('reads a zero quota as full once anything is stored', () => {
    expect(storageUsage(0, 0)).toEqual({ percent: '0.0%', bar: 0 });
    expect(storageUsage(1, 0)).toEqual({ percent: '100.0%', bar: 100 });
  });
});

describe('maskToken', () => {
  it('hides all but the last four characters', () => {
    expect(maskToken('upt_abcdefghijklmnop')).toBe('••••••••••••mnop');
  });

  it('hides a token too short to show any of', () => {
    expect(maskToken('abcd')).toBe('••••••••••••');
  });
});
