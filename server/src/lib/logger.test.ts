import { describe, expect, it } from 'vitest';
import { loggableUrl } from './logger.ts';

describe('loggableUrl', () => {
  it('hides link signatures and invitation codes, and keeps the rest', () => {
    expect(loggableUrl('/d/abc?signature=0123abcd')).toBe('/d/abc?signature=[redacted]');
    expect(loggableUrl('/x1?expires=99&signature=f00&a=1')).toBe(
      '/x1?expires=99&signature=[redacted]&a=1',
    );
    expect(loggableUrl('/register?invite=SECRET-CODE')).toBe('/register?invite=[redacted]');
    expect(loggableUrl('/api/auth/invites/SECRET-CODE')).toBe('/api/auth/invites/[redacted]');
    expect(loggableUrl('/api/auth/invites/SECRET?x=1')).toBe('/api/auth/invites/[redacted]?x=1');
    expect(loggableUrl('/api/uploads?search=invite')).toBe('/api/uploads?search=invite');
  });
});
