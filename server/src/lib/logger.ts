/** What services and jobs log through: the app's logger (pino) fits it, and tests can record it. */
export type Logger = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

/**
 * A URL as it may be logged: link signatures (which open a file or delete an upload, and a
 * deletion link's never expires) and invitation codes (which set a password) replaced by
 * [redacted].
 */
export function loggableUrl(url: string): string {
  return url
    .replace(/([?&](?:signature|invite)=)[^&#]*/gi, '$1[redacted]')
    .replace(/^(\/api\/auth\/invites\/)[^?#]*/i, '$1[redacted]');
}
