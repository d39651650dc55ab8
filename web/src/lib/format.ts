const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** Human file size in base 1024, up to TB: `formatBytes(1536)` -> `'1.5 KB'`. */
export function formatBytes(bytes: number, decimals = 2): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(
    Math.max(0, Math.floor(Math.log(bytes) / Math.log(1024))),
    SIZE_UNITS.length - 1,
  );
  const value = bytes / 1024 ** exponent;
  return `${parseFloat(value.toFixed(Math.max(0, decimals)))} ${SIZE_UNITS[exponent]}`;
}

const dateFormatter = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** en-US date with time, e.g. `Mar 5, 2025, 2:07 PM`, in the viewer's time zone. */
export function formatDate(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return dateFormatter.format(date);
}

const calendarDateFormatter = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
});

/** en-US date without the time, e.g. `Mar 5, 2025`, in the viewer's time zone. */
export function formatCalendarDate(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return calendarDateFormatter.format(date);
}

const dayFormatter = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** A calendar day given as `YYYY-MM-DD` (a UTC day), e.g. `Nov 3`, the same in every time zone. */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return dayFormatter.format(date);
}

const countFormatter = new Intl.NumberFormat('en-US');

/** A count with en-US digit grouping: `formatCount(12345)` -> `'12,345'`. */
export function formatCount(value: number): string {
  return countFormatter.format(value);
}
