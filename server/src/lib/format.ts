/** Human sizes for messages, base 1024 (as the web app shows them). */
export function formatBytes(bytes: number): string {
  if (bytes <= 0) return '0 Bytes';
  const units = ['Bytes', 'KB', 'MB', 'GB', 'TB'];
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** i;
  return `${Number.isInteger(value) ? value : value.toFixed(2)} ${units[i]}`;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe to put in HTML, in an element or a quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

const UTC_DATE_TIME = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

const UTC_DATE = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A day in the web app's date format (en-US), in UTC ("Nov 23, 2026"). */
export function formatUtcDate(iso: string): string {
  return UTC_DATE.format(new Date(iso));
}

/**
 * A moment in the web app's date format (en-US), in UTC and saying so: a page or an email has
 * no time zone of its reader ("Nov 23, 2026, 5:40 PM UTC").
 */
export function formatUtcDateTime(iso: string): string {
  return UTC_DATE_TIME.format(new Date(iso));
}
