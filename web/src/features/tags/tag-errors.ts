import { UPLOAD_TAG_LIMIT_MESSAGE, USER_TAG_LIMIT_MESSAGE } from '@upshot/contract/constants';
import { getApiErrorMessage } from '../../lib/api-client.ts';

export const TAG_EXISTS = 'Tag already exists';

/** The server's answers when a tag would pass a limit: shown as they are, they say why. */
const LIMIT_MESSAGES = [UPLOAD_TAG_LIMIT_MESSAGE, USER_TAG_LIMIT_MESSAGE];

/**
 * The toast for a failed tag call: 'Tag already exists' when the server's message says the name
 * is taken (a 409 reads `Tag "name" already exists`), the server's message when a limit was
 * reached, else the action's own failure text.
 */
export function tagFailureMessage(error: unknown, fallback: string): string {
  const message = getApiErrorMessage(error);
  if (message?.includes('already exists')) return TAG_EXISTS;
  if (message !== undefined && LIMIT_MESSAGES.includes(message)) return message;
  return fallback;
}
