import type { Theme } from '@upshot/contract';
import { MAX_PAGE_SIZE, MIN_PAGE_SIZE } from '@upshot/contract/constants';

/**
 * The page size typed in Settings, when it is one the brief accepts: a whole number from 10 to
 * 100. Anything else is null, and is not sent.
 */
export function parseUploadsPerPage(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= MIN_PAGE_SIZE && value <= MAX_PAGE_SIZE ? value : null;
}

/** The brief forces dark: only 'light', chosen explicitly, is light ('system' reads as dark). */
export function isDarkTheme(theme: Theme): boolean {
  return theme !== 'light';
}
