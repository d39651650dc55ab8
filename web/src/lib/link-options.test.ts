import { describe, expect, it } from 'vitest';
import { expiryChoices, expiryLabel, parseViewLimit, timeSpan } from './link-options.ts';

describe('expiryLabel', () => {
  it.each([
    ['never', 'Never'],
    ['30m', '30 minutes'],
    ['1h', '1 hour'],
    ['12h', '12 hours'],
    ['1d', '1 day'],
    ['7d', '7 days'],
    ['2w', '2 weeks'],
    ['1y', '1 year'],
    ['soon', 'soon'],
  ])('reads %j as %j', (value, label) => {
    expect(expiryLabel(value)).toBe(label);
  });
});

describe('expiryChoices', () => {
  it('offers never and the presets, with another saved duration in its place by length', () => {
    expect(expiryChoices()).toEqual(['never', '1h', '1d', '7d', '30d']);
    expect(expiryChoices('7d')).toEqual(['never', '1h', '1d', '7d', '30d']);
    expect(expiryChoices('12h')).toEqual(['never', '1h', '12h', '1d', '7d', '30d']);
    expect(expiryChoices('1y')).toEqual(['never', '1h', '1d', '7d', '30d', '1y']);
    expect(expiryChoices('30m')).toEqual(['never', '30m', '1h', '1d', '7d', '30d']);
  });
});

describe('parseViewLimit', () => {
  it('reads empty as no limit, a whole number from 1 to a million as itself', () => {
    expect(parseViewLimit('')).toBeNull();
    expect(parseViewLimit('  ')).toBeNull();
    expect(parseViewLimit('1')).toBe(1);
    expect(parseViewLimit(' 42 ')).toBe(42);
    expect(parseViewLimit('1000000')).toBe(1_000_000);
  });

  it.each(['0', '-1', '2.5', '1e3', 'abc', '1000001'])('refuses %j', (text) => {
    expect(parseViewLimit(text)).toBeUndefined();
  });
});

describe('timeSpan', () => {
  const minute = 60_000;
  const hour = 60 * minute;
  const day = 24 * hour;
  it.each([
    [20_000, 'less than a minute'],
    [minute, '1 minute'],
    [59 * minute, '59 minutes'],
    [59.7 * minute, '1 hour'],
    [5 * hour, '5 hours'],
    [23.6 * hour, '1 day'],
    [3 * day - minute, '3 days'],
    [7 * day, '7 days'],
    [400 * day, '1 year'],
    [800 * day, '2 years'],
  ])('reads %d ms as %j', (ms, text) => {
    expect(timeSpan(ms)).toBe(text);
  });
});
