import { describe, expect, it } from 'vitest';
import { makeUpload } from '../../test/fixtures.ts';
import { initialLinkForm, linkChanges, placeRefusal, toLocalInput } from './link-settings.ts';

const now = Date.parse('2026-06-01T12:00:00Z');
const HOUR = 3_600_000;

describe('linkChanges', () => {
  it('sends nothing for an untouched form', () => {
    const upload = makeUpload({
      expiresAt: new Date(now + 48 * HOUR).toISOString(),
      maxViews: 5,
      viewsLeft: 2,
      hasPassword: true,
    });
    expect(linkChanges(upload, initialLinkForm(upload), now)).toEqual({ changes: {} });
  });

  it('sends what changed: privacy, an expiry from now, a limit and a password', () => {
    const upload = makeUpload();
    const form = {
      ...initialLinkForm(upload),
      isPublic: false,
      expiry: '1d',
      maxViews: '3',
      password: 'set' as const,
      newPassword: 'pw',
    };
    expect(linkChanges(upload, form, now)).toEqual({
      changes: {
        isPublic: false,
        expiresAt: new Date(now + 24 * HOUR).toISOString(),
        maxViews: 3,
        password: 'pw',
      },
    });
  });

  it('clears an expiry, a limit and a password with null', () => {
    const upload = makeUpload({
      expiresAt: new Date(now + HOUR).toISOString(),
      maxViews: 5,
      viewsLeft: 5,
      hasPassword: true,
    });
    const form = {
      ...initialLinkForm(upload),
      expiry: 'never',
      maxViews: '',
      password: 'remove' as const,
    };
    expect(linkChanges(upload, form, now)).toEqual({
      changes: { expiresAt: null, maxViews: null, password: null },
    });
  });

  it("reads a datetime-local value as the viewer's time (the suite runs in UTC)", () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('UTC');
    expect(toLocalInput(new Date('2030-12-04T17:01:30Z'))).toBe('2030-12-04T17:01');
    const form = {
      ...initialLinkForm(makeUpload()),
      expiry: 'date',
      expiryDate: '2030-12-04T17:01',
    };
    expect(linkChanges(makeUpload(), form, now)).toEqual({
      changes: { expiresAt: '2030-12-04T17:01:00.000Z' },
    });
  });

  it("takes a date in the viewer's time, and only in the future", () => {
    const upload = makeUpload();
    const at = new Date(now + 5 * 24 * HOUR);
    const form = { ...initialLinkForm(upload), expiry: 'date', expiryDate: toLocalInput(at) };
    expect(linkChanges(upload, form, now)).toEqual({
      changes: { expiresAt: new Date(Math.floor(at.getTime() / 60_000) * 60_000).toISOString() },
    });
    const past = { ...form, expiryDate: toLocalInput(new Date(now - HOUR)) };
    expect(linkChanges(upload, past, now)).toEqual({
      errors: { expiresAt: 'Choose a time in the future' },
    });
    expect(linkChanges(upload, { ...form, expiryDate: '' }, now)).toEqual({
      errors: { expiresAt: 'Choose a date and time' },
    });
  });

  it('refuses a view limit the server would refuse, and an empty new password', () => {
    const upload = makeUpload();
    const form = { ...initialLinkForm(upload), maxViews: '0', password: 'set' as const };
    expect(linkChanges(upload, form, now)).toEqual({
      errors: {
        maxViews: 'A whole number from 1 to 1,000,000, or empty',
        password: 'Type the new password',
      },
    });
  });
});

describe('placeRefusal', () => {
  it('puts a 400 under the field it names, and anything else on the form', () => {
    expect(placeRefusal('maxViews: must be at least 1')).toEqual({
      maxViews: 'Must be at least 1',
    });
    expect(placeRefusal('expiresAt: must be in the future')).toEqual({
      expiresAt: 'Must be in the future',
    });
    expect(placeRefusal('password is required')).toEqual({ password: 'password is required' });
    expect(placeRefusal('Upload not found')).toEqual({ form: 'Upload not found' });
    expect(placeRefusal('vanityUrl: taken')).toEqual({ form: 'vanityUrl: taken' });
  });
});
