// The brief's checks on a new password (section 5), for every form that sets one: registering
// with an invitation, replacing a temporary password, and changing one's password in Settings.
import { MIN_PASSWORD_LENGTH } from '@upshot/contract/constants';

export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
export const PASSWORDS_DO_NOT_MATCH = 'New passwords do not match';
export const CURRENT_PASSWORD_REQUIRED = 'Current password is required';

export type NewPasswordErrors = { password?: string; confirm?: string };
export type PasswordChangeErrors = NewPasswordErrors & { current?: string };

/** The error of each field, or an empty object when the pair may be sent. */
export function checkNewPassword(password: string, confirm: string): NewPasswordErrors {
  if (password.length < MIN_PASSWORD_LENGTH) return { password: PASSWORD_TOO_SHORT };
  if (confirm !== password) return { confirm: PASSWORDS_DO_NOT_MATCH };
  return {};
}

/** A change from the current password: that one is needed too. */
export function checkPasswordChange(form: {
  current: string;
  password: string;
  confirm: string;
}): PasswordChangeErrors {
  return {
    ...(form.current === '' ? { current: CURRENT_PASSWORD_REQUIRED } : {}),
    ...checkNewPassword(form.password, form.confirm),
  };
}
