/** What services and jobs log through: the app's logger (pino) fits it, and tests can record it. */
export type Logger = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};
