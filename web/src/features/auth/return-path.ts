// Where sign-in leads: back to the page a lost session or a signed-out visit interrupted
// (with its query string), else the dashboard.
export type ReturnState = { from: string };

export const DEFAULT_RETURN_PATH = '/dashboard';

export function returnPathOf(state: unknown): string {
  const from =
    typeof state === 'object' && state !== null ? (state as Partial<ReturnState>).from : undefined;
  // Only a path of this app: never another origin ('//host') or the sign-in screen itself.
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//')) {
    return DEFAULT_RETURN_PATH;
  }
  if (from === '/login' || from.startsWith('/login?')) return DEFAULT_RETURN_PATH;
  return from;
}
