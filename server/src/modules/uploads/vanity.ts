/** The rules of a custom (vanity) URL. */
import {
  isReservedPath,
  looksLikeShortCode,
  VANITY_MAX,
  VANITY_MIN,
  VANITY_PATTERN,
} from '@upshot/contract';
import { ConflictError, ValidationError } from '../../errors.ts';

/**
 * A custom URL as asked, trimmed; null (or blank) removes it. Refused, naming why, when it
 * could never be one.
 */
export function validateVanity(raw: string | null): string | null {
  const vanity = raw === null ? '' : raw.trim();
  if (vanity === '') return null;
  if (vanity.length < VANITY_MIN || vanity.length > VANITY_MAX) {
    throw new ValidationError(`Custom URL must be ${VANITY_MIN}-${VANITY_MAX} characters`);
  }
  if (!VANITY_PATTERN.test(vanity)) {
    throw new ValidationError(
      'Custom URL may contain only letters, numbers, hyphens and underscores',
    );
  }
  if (isReservedPath(vanity)) throw new ConflictError(`"${vanity}" is reserved`);
  // Any such slug could be a short code, now or later: a link that must never change hands.
  if (looksLikeShortCode(vanity)) {
    throw new ValidationError(
      'Custom URL must not look like a short code (6 letters and digits): make it longer or add a hyphen',
    );
  }
  return vanity;
}
