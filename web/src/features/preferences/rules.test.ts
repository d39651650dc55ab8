import { describe, expect, it } from 'vitest';
import { isDarkTheme, parseUploadsPerPage, placeRefusal } from './rules.ts';

describe('parseUploadsPerPage', () => {
  it.each([
    ['10', 10],
    ['20', 20],
    ['100', 100],
    [' 55 ', 55],
    ['042', 42],
  ])('accepts %j', (text, value) => {
    expect(parseUploadsPerPage(text)).toBe(value);
  });

  it.each(['', '9', '101', '-20', '12.5', '20.0', '1e2', 'abc', '0x14'])('ignores %j', (text) => {
    expect(parseUploadsPerPage(text)).toBeNull();
  });
});

describe('isDarkTheme', () => {
  it('is dark unless Light is chosen', () => {
    expect(isDarkTheme('system')).toBe(true);
    expect(isDarkTheme('dark')).toBe(true);
    expect(isDarkTheme('light')).toBe(false);
  });
});

describe('placeRefusal', () => {
  const fields = ['embedTitle', 'embedColor'] as const;
  it.each([
    ['embedColor: must be a colour as #rrggbb', 'embedColor', 'Must be a colour as #rrggbb'],
    ['embedTitle is required', 'embedTitle', 'embedTitle is required'],
  ])('puts %j under its field', (message, field, shown) => {
    expect(placeRefusal(message, fields)).toEqual({ field, message: shown });
  });

  it.each(['theme: must be one of system, light, dark', 'Invalid request', 'embedTitles: x'])(
    'places %j nowhere',
    (message) => {
      expect(placeRefusal(message, fields)).toBeNull();
    },
  );
});
