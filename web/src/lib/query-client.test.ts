import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { shouldRetry } from './query-client.ts';

describe('shouldRetry', () => {
  it('tries once more after a network failure or a server error', () => {
    expect(shouldRetry(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetry(0, new ApiError(503, 'http_error', 'x', false))).toBe(true);
    expect(shouldRetry(1, new ApiError(503, 'http_error', 'x', false))).toBe(false);
  });

  it('does not ask again what the server refused (a 401 ends the session at once)', () => {
    expect(shouldRetry(0, new ApiError(401, 'unauthorized', 'x', true))).toBe(false);
    expect(shouldRetry(0, new ApiError(404, 'not_found', 'x', true))).toBe(false);
  });
});
