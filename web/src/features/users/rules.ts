// The Settings rules that need no server: the storage figures and how the API token is masked.

/** Used over quota: the percentage to one decimal as shown, and the bar's width capped at 100. */
export function storageUsage(used: number, quota: number): { percent: string; bar: number } {
  const ratio = quota > 0 ? (used / quota) * 100 : used > 0 ? 100 : 0;
  return { percent: `${ratio.toFixed(1)}%`, bar: Math.min(100, Math.max(0, ratio)) };
}

const MASK = '\u2022'.repeat(12);

/** The token hidden but for its last four characters, so the user can tell tokens apart. */
export function maskToken(token: string): string {
  return token.length <= 4 ? MASK : `${MASK}${token.slice(-4)}`;
}
