import { describe, expect, it } from 'vitest';
import { getInitials } from './initials.ts';

describe('getInitials', () => {
  it('takes the first two letters of the username, uppercased', () => {
    expect(getInitials({ username: 'alice', email: 'zed@example.com' })).toBe('AL');
  });

  it('falls back to the email when there is no username', () => {
    expect(getInitials({ username: '', email: 'zed@example.com' })).toBe('ZE');
    expect(getInitials({ username: null, email: 'bo@example.com' })).toBe('BO');
  });

  it('keeps a one-letter username as one letter', () => {
    expect(getInitials({ username: 'x', email: 'long@example.com' })).toBe('X');
  });
});
