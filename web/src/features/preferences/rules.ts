import type { Preferences, Theme } from '@upshot/contract';
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

/**
 * Where the server's refusal of a save belongs: a 400 names its field first ("embedColor: must
 * be a colour as #rrggbb"), shown under that field without the name, as a sentence; null when
 * it names no preference.
 */
export function placeRefusal(
  message: string,
  fields: readonly (keyof Preferences)[],
): { field: keyof Preferences; message: string } | null {
  const match = /^(\w+)(:\s*|\s)(.*)$/s.exec(message);
  const field = fields.find((name) => name === match?.[1]);
  if (!field || !match) return null;
  if (!match[2]!.startsWith(':')) return { field, message }; // "embedTitle is required"
  const rest = match[3]!;
  return { field, message: rest.charAt(0).toUpperCase() + rest.slice(1) };
}
