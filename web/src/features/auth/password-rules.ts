// The brief's checks on a new password (section 5), for the screens that set one: registering
// with an invitation and replacing a temporary password.
import { MIN_PASSWORD_LENGTH } from '@upshot/contract/constants';

export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
export const PASSWORDS_DO_NOT_MATCH = 'New passwords do not match';

export type NewPasswordErrors = { password?: string; confirm?: string };

/** The error of each field, or an empty object when the pair may be sent. */
export function checkNewPassword(password: string, confirm: string): NewPasswordErrors {
  if (password.length < MIN_PASSWORD_LENGTH) return { password: PASSWORD_TOO_SHORT };
  if (confirm !== password) return { confirm: PASSWORDS_DO_NOT_MATCH };
  return {};
}
