/** Human sizes for messages, base 1024 (as the web app shows them). */
export function formatBytes(bytes: number): string {
  if (bytes <= 0) return '0 Bytes';
  const units = ['Bytes', 'KB', 'MB', 'GB', 'TB'];
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** i;
  return `${Number.isInteger(value) ? value : value.toFixed(2)} ${units[i]}`;
}
