import { describe, expect, it } from 'vitest';
import { expiryStatus, opensSigned, viewsStatus } from './link-status.ts';

const now = Date.parse('2026-06-01T12:00:00Z');
const DAY = 86_400_000;

describe('expiryStatus', () => {
  it('says how long the link works, or that it has expired', () => {
    expect(expiryStatus(null, now)).toBeNull();
    expect(expiryStatus(new Date(now + 3 * DAY).toISOString(), now)).toEqual({
      text: 'Expires in 3 days',
      spent: false,
    });
    expect(expiryStatus(new Date(now + 90 * 60_000).toISOString(), now)?.text).toBe(
      'Expires in 2 hours',
    );
    expect(expiryStatus(new Date(now).toISOString(), now)).toEqual({
      text: 'Expired',
      spent: true,
    });
  });
});

describe('viewsStatus', () => {
  it('says how many views are left of the limit', () => {
    expect(viewsStatus({ maxViews: null, viewsLeft: null })).toBeNull();
    expect(viewsStatus({ maxViews: 5, viewsLeft: 2 })).toEqual({
      text: '2 of 5 views left',
      spent: false,
    });
    expect(viewsStatus({ maxViews: 1, viewsLeft: 1 })?.text).toBe('1 of 1 view left');
    expect(viewsStatus({ maxViews: 5, viewsLeft: 0 })).toEqual({
      text: 'No views left',
      spent: true,
    });
  });
});

describe('opensSigned', () => {
  it('opens through a signed link what is private, view-limited or protected', () => {
    expect(opensSigned({ isPublic: true, maxViews: null, hasPassword: false })).toBe(false);
    expect(opensSigned({ isPublic: true })).toBe(false);
    expect(opensSigned({ isPublic: false })).toBe(true);
    expect(opensSigned({ isPublic: true, maxViews: 3, hasPassword: false })).toBe(true);
    expect(opensSigned({ isPublic: true, maxViews: null, hasPassword: true })).toBe(true);
  });
});
