import { getApiErrorMessage } from '../../lib/api-client.ts';

export const TAG_EXISTS = 'Tag already exists';

/**
 * The toast for a failed tag call: 'Tag already exists' when the server's message says the name
 * is taken (a 409 reads `Tag "name" already exists`), else the action's own failure text.
 */
export function tagFailureMessage(error: unknown, fallback: string): string {
  return getApiErrorMessage(error)?.includes('already exists') ? TAG_EXISTS : fallback;
}
