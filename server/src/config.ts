/** Reads the environment once. The only module allowed to touch process.env. */
import fs from 'node:fs';
import { z } from 'zod';
import {
  CHUNK_SIZE,
  DEFAULT_MAX_UPLOAD_BYTES,
  DEFAULT_QUOTA_BYTES,
  Email,
  Username,
} from '@upshot/contract';

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/**
 * An empty value is an unset one (a line `PORT=` left in an env file means the default, not 0).
 * FFMPEG_PATH alone gives empty a meaning of its own (no video thumbnails).
 */
const unsetIfEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema);

const EnvSchema = z.object({
  PORT: unsetIfEmpty(z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: unsetIfEmpty(z.string().default('0.0.0.0')),
  PUBLIC_URL: optional.pipe(z.url().optional()),
  CONTENT_URL: optional.pipe(
    z
      .url({ protocol: /^https?$/ })
      .refine((v) => /^https?:\/\/[^/?#]+\/?$/.test(v), 'must be an origin, without a path')
      .optional(),
  ),
  DATA_DIR: unsetIfEmpty(z.string().default('./data')),
  DATABASE_URL: optional.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// (leave it unset for SQLite)')
      .optional(),
  ),
  SECRET_KEY: optional.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  ACCEPT_NEW_SECRET_KEY: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  ADMIN_EMAIL: optional.pipe(Email.optional()),
  ADMIN_PASSWORD: optional.pipe(z.string().min(8, 'must be at least 8 characters').optional()),
  ADMIN_USERNAME: optional.pipe(Username.optional()),
  SMTP_URL: optional.pipe(
    z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, 'must be smtp://user:pass@host:port or smtps://...')
      .refine((s) => {
        try {
          const url = new URL(s);
          decodeURIComponent(url.username);
          decodeURIComponent(url.password);
          return url.hostname !== '';
        } catch {
          return false;
        }
      }, 'must be a valid URL (percent-encode special characters in the user and password)')
      .optional(),
  ),
  MAIL_FROM: optional.pipe(z.string().max(320).optional()),
  DEFAULT_QUOTA_BYTES: unsetIfEmpty(
    z.coerce.number().int().nonnegative().default(DEFAULT_QUOTA_BYTES),
  ),
  MAX_UPLOAD_BYTES: unsetIfEmpty(
    z.coerce.number().int().positive().default(DEFAULT_MAX_UPLOAD_BYTES),
  ),
  FFMPEG_PATH: z.string().default('ffmpeg'),
  LOG_LEVEL: unsetIfEmpty(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  STORAGE_DRIVER: unsetIfEmpty(z.enum(['local', 's3']).default('local')),
  S3_ENDPOINT: optional.pipe(z.url('must be a URL such as http://minio:9000').optional()),
  S3_REGION: optional.pipe(z.string().default('us-east-1')),
  S3_BUCKET: optional.pipe(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name')
      .optional(),
  ),
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  S3_SERVE: unsetIfEmpty(z.enum(['proxy', 'presigned']).default('proxy')),
  METRICS_TOKEN: optional.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  SHUTDOWN_TIMEOUT_MS: unsetIfEmpty(z.coerce.number().int().min(0).max(600_000).default(10_000)),
  PUBLIC_MAX_AGE_SECONDS: unsetIfEmpty(z.coerce.number().int().min(0).max(31_536_000).default(300)),
  BODY_IDLE_TIMEOUT_MS: unsetIfEmpty(
    z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  ),
  S3_PREFIX: optional.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9!_.*'()/-]+$/, "may hold letters, digits and !_.*'()/- only")
      .optional(),
  ),
});

/** S3 numbers a multipart upload's parts 1..10000, one per chunk. */
const S3_MAX_PARTS = 10_000;

/** The app's origin: PUBLIC_URL, else this machine's port. */
const publicUrlOf = (e: { PUBLIC_URL?: string; PORT: number }) =>
  (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');

const StorageRules = EnvSchema.superRefine((e, ctx) => {
  // Refinements run even past a wrong value: compare only two URLs that parse. The origins
  // are told apart by host name and port (Host), so those must differ, not just the scheme.
  const [content, app] = [e.CONTENT_URL, publicUrlOf(e)].map((u) => (u ? URL.parse(u) : null));
  if (content && app && content.host === app.host) {
    ctx.addIssue({
      code: 'custom',
      path: ['CONTENT_URL'],
      message: 'must be another host than PUBLIC_URL (leave it unset for one origin)',
    });
  }
  if (e.STORAGE_DRIVER !== 's3') return;
  for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
    if (!e[name])
      ctx.addIssue({ code: 'custom', path: [name], message: 'is required with STORAGE_DRIVER=s3' });
  }
  if (e.MAX_UPLOAD_BYTES > S3_MAX_PARTS * CHUNK_SIZE) {
    ctx.addIssue({
      code: 'custom',
      path: ['MAX_UPLOAD_BYTES'],
      message: `must be at most ${S3_MAX_PARTS * CHUNK_SIZE} with STORAGE_DRIVER=s3 (${S3_MAX_PARTS} chunks)`,
    });
  }
});

export type S3Config = {
  /** undefined: AWS itself. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  prefix: string | undefined;
  /** proxy: file bytes stream through Upshot; presigned: a redirect to a short-lived GET. */
  serve: 'proxy' | 'presigned';
};

export type Config = {
  port: number;
  host: string;
  publicUrl: string;
  /**
   * The origin of every link to user content (files, thumbnails, preview pages): CONTENT_URL,
   * else PUBLIC_URL. When they differ, each origin serves only its own paths.
   */
  contentUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  secretKey: string | undefined;
  /** Start with a secret key other than the one the database was used with (db/key-check.ts). */
  acceptNewSecretKey: boolean;
  admin: { email?: string; password?: string; username?: string };
  defaultQuotaBytes: number;
  maxUploadBytes: number;
  /** Command used for video thumbnails; empty disables them. */
  ffmpegPath: string;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  trustProxy: boolean;
  /** smtp:// or smtps:// URL with credentials; unset: email is not configured. */
  smtpUrl: string | undefined;
  /** The From of every email. */
  mailFrom: string;
  webDistDir: string;
  /** Upshot's version (the root package.json). */
  version: string;
  /** Bearer token that opens /metrics; unset: no metrics. */
  metricsToken: string | undefined;
  /** How long a SIGTERM waits for requests in flight before closing their connections. */
  shutdownTimeoutMs: number;
  /**
   * How long browsers and CDNs may keep a public file or thumbnail: the bound on how long one
   * deleted or made private may still be seen outside Upshot.
   */
  publicMaxAgeSeconds: number;
  /** How long a request's body may send nothing before the request ends with 408. */
  bodyIdleTimeoutMs: number;
  /** Where uploads and thumbnails are kept: DATA_DIR/files, or an S3 bucket. */
  storage: { driver: 'local' } | { driver: 's3'; s3: S3Config };
};

export class ConfigError extends Error {}

const APP_VERSION =
  (
    JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    }
  ).version ?? '0.0.0';

/** Parses an environment (process.env by default); the message names every wrong variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = StorageRules.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const publicUrl = publicUrlOf(e);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    contentUrl: e.CONTENT_URL ? new URL(e.CONTENT_URL).origin : publicUrl,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    secretKey: e.SECRET_KEY,
    acceptNewSecretKey: e.ACCEPT_NEW_SECRET_KEY,
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD, username: e.ADMIN_USERNAME },
    defaultQuotaBytes: e.DEFAULT_QUOTA_BYTES,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    ffmpegPath: e.FFMPEG_PATH,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `Upshot <upshot@${new URL(publicUrl).hostname}>`,
    // Two levels up from server/src (source) and server/dist (bundle) alike.
    webDistDir: new URL('../../web/dist', import.meta.url).pathname,
    version: APP_VERSION,
    metricsToken: e.METRICS_TOKEN,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    publicMaxAgeSeconds: e.PUBLIC_MAX_AGE_SECONDS,
    bodyIdleTimeoutMs: e.BODY_IDLE_TIMEOUT_MS,
    storage:
      e.STORAGE_DRIVER === 's3'
        ? {
            driver: 's3',
            s3: {
              endpoint: e.S3_ENDPOINT,
              region: e.S3_REGION,
              // Checked by StorageRules.
              bucket: e.S3_BUCKET as string,
              accessKeyId: e.S3_ACCESS_KEY_ID as string,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY as string,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
              prefix: e.S3_PREFIX,
              serve: e.S3_SERVE,
            },
          }
        : { driver: 'local' },
  };
}
