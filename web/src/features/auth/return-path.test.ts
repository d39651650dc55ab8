import { describe, expect, it } from 'vitest';
import { returnPathOf } from './return-path.ts';

describe('returnPathOf', () => {
  it('returns to the page a session was lost on, query and hash included', () => {
    expect(returnPathOf({ from: '/uploads?type=images&page=2#top' })).toBe(
      '/uploads?type=images&page=2#top',
    );
  });

  it('goes to the dashboard for anything else: no state, another origin, the sign-in screen', () => {
    for (const state of [
      null,
      undefined,
      'nope',
      {},
      { from: 42 },
      { from: 'https://evil.example/' },
      { from: '//evil.example/' },
      { from: 'uploads' },
      { from: '/login' },
      { from: '/login?x=1' },
    ]) {
      expect(returnPathOf(state), JSON.stringify(state)).toBe('/dashboard');
    }
  });
});
