import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { tagFailureMessage } from './tag-errors.ts';

describe('tagFailureMessage', () => {
  it("says 'Tag already exists' when the server's message says so", () => {
    const conflict = new ApiError(409, 'conflict', 'Tag "Photos" already exists', true);
    expect(tagFailureMessage(conflict, 'Failed to create tag')).toBe('Tag already exists');
    expect(tagFailureMessage(conflict, 'Failed to rename tag')).toBe('Tag already exists');
  });

  it("shows the server's message when a tag limit is reached", () => {
    const perUpload = new ApiError(409, 'conflict', 'An upload can carry at most 50 tags', true);
    const perUser = new ApiError(409, 'conflict', 'You can have at most 1,000 tags', true);
    expect(tagFailureMessage(perUpload, 'Failed to add tag')).toBe(
      'An upload can carry at most 50 tags',
    );
    expect(tagFailureMessage(perUser, 'Failed to create tag')).toBe(
      'You can have at most 1,000 tags',
    );
  });

  it("falls back to the action's own text for anything else", () => {
    const fallback = 'Failed to create tag';
    const invalid = new ApiError(400, 'validation_error', 'Tag name is required', true);
    // A message this client made up (no body from the server) is not the server's word.
    const bare = new ApiError(409, 'http_error', 'already exists', false);
    for (const error of [invalid, bare, new TypeError('Failed to fetch'), undefined]) {
      expect(tagFailureMessage(error, fallback)).toBe(fallback);
    }
  });
});
