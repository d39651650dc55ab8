// How a link's expiry and view limit read and are typed, wherever they are chosen: the upload
// dialog, an upload's Link settings and the preferences' defaults.
import { durationMs, MAX_VIEWS_LIMIT, NEVER_EXPIRES } from '@upshot/contract/constants';
import { formatCount } from './format.ts';

/** The expiries offered: never, or a duration the server reads (`parseExpires`). */
export const EXPIRY_PRESETS: readonly string[] = [NEVER_EXPIRES, '1h', '1d', '7d', '30d'];

const UNIT_NAMES: Record<string, string> = {
  m: 'minute',
  h: 'hour',
  d: 'day',
  w: 'week',
  y: 'year',
};

function plural(count: number, unit: string): string {
  return `${formatCount(count)} ${unit}${count === 1 ? '' : 's'}`;
}

/** 'never' -> 'Never', '7d' -> '7 days', '1h' -> '1 hour'; anything else as it is. */
export function expiryLabel(value: string): string {
  if (value === NEVER_EXPIRES) return 'Never';
  const match = /^(\d+)([mhdwy])$/.exec(value);
  if (!match || durationMs(value) === null) return value;
  return plural(Number(match[1]), UNIT_NAMES[match[2]!]!);
}

/** The presets, with `extra` (a saved default that is none of them) in its place by length. */
export function expiryChoices(extra?: string): string[] {
  if (extra === undefined || EXPIRY_PRESETS.includes(extra)) return [...EXPIRY_PRESETS];
  const ms = durationMs(extra);
  if (ms === null) return [...EXPIRY_PRESETS];
  const durations = EXPIRY_PRESETS.slice(1);
  const at = durations.findIndex((preset) => (durationMs(preset) ?? 0) > ms);
  const index = at === -1 ? durations.length : at;
  return [NEVER_EXPIRES, ...durations.slice(0, index), extra, ...durations.slice(index)];
}

export const VIEW_LIMIT_HINT = 'Leave empty for no limit';
export const VIEW_LIMIT_ERROR = `A whole number from 1 to ${formatCount(MAX_VIEWS_LIMIT)}, or empty`;

/**
 * A view limit as typed: '' is no limit (null), a whole number from 1 to MAX_VIEWS_LIMIT is
 * itself, anything else undefined (not a limit the server takes).
 */
export function parseViewLimit(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d{1,9}$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= 1 && value <= MAX_VIEWS_LIMIT ? value : undefined;
}

export const PASSWORD_ENDS_ERROR = 'Must not begin or end with a space';

/** What is wrong with a link password as typed (the server's rule), or null. */
export function passwordProblem(text: string): string | null {
  return text.trim() === text ? null : PASSWORD_ENDS_ERROR;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long until a moment `ms` away, rounded to its largest unit: '3 days', '5 hours'. */
export function timeSpan(ms: number): string {
  const minutes = Math.round(ms / MINUTE);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.round(ms / HOUR);
  if (hours < 24) return plural(hours, 'hour');
  const days = Math.round(ms / DAY);
  if (days < 365) return plural(days, 'day');
  return plural(Math.round(days / 365), 'year');
}
