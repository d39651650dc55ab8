import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      dataDir: './data',
      databaseUrl: undefined,
      secretKey: undefined,
      defaultQuotaBytes: 10 * 1024 ** 3,
      logLevel: 'info',
      trustProxy: false,
      publicMaxAgeSeconds: 300,
    });
  });

  it('takes an empty value for unset (a `PORT=` line left in an env file), FFMPEG_PATH aside', () => {
    const names = [
      'PORT',
      'HOST',
      'PUBLIC_URL',
      'DATA_DIR',
      'DATABASE_URL',
      'SECRET_KEY',
      'ACCEPT_NEW_SECRET_KEY',
      'DEFAULT_QUOTA_BYTES',
      'MAX_UPLOAD_BYTES',
      'LOG_LEVEL',
      'TRUST_PROXY',
      'STORAGE_DRIVER',
      'S3_SERVE',
      'METRICS_TOKEN',
      'SHUTDOWN_TIMEOUT_MS',
      'PUBLIC_MAX_AGE_SECONDS',
      'BODY_IDLE_TIMEOUT_MS',
    ];
    const empty = loadConfig(Object.fromEntries(names.map((n) => [n, ''])));
    const { ffmpegPath, ...defaults } = loadConfig({});
    expect(empty).toEqual({ ...defaults, ffmpegPath });
    expect(empty).toMatchObject({ port: 3000, defaultQuotaBytes: 10 * 1024 ** 3 });
    expect(empty.shutdownTimeoutMs).toBe(10_000);
    expect(empty.bodyIdleTimeoutMs).toBe(60_000);
    // Empty FFMPEG_PATH turns video thumbnails off (README).
    expect(loadConfig({ FFMPEG_PATH: '' }).ffmpegPath).toBe('');
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://files.example.com/' }).publicUrl).toBe(
      'https://files.example.com',
    );
  });

  it('reads CONTENT_URL as an origin of its own, PUBLIC_URL being the default', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://example.com' }).contentUrl).toBe(
      'https://example.com',
    );
    const two = loadConfig({
      PUBLIC_URL: 'https://example.com',
      CONTENT_URL: 'https://u.example.com/',
    });
    expect(two.contentUrl).toBe('https://u.example.com');
    expect(two.publicUrl).toBe('https://example.com');
    for (const bad of [
      'https://u.example.com/files',
      'ftp://u.example.com',
      'u.example.com',
      'https://example.com',
    ]) {
      expect(
        () => loadConfig({ PUBLIC_URL: 'https://example.com', CONTENT_URL: bad }),
        bad,
      ).toThrow(/CONTENT_URL: /);
    }
    expect(() => loadConfig({ PORT: '8080', CONTENT_URL: 'http://localhost:8080' })).toThrow(
      /CONTENT_URL: must be another host than PUBLIC_URL/,
    );
    // Told apart by Host: another scheme alone is the same name.
    expect(() =>
      loadConfig({ PUBLIC_URL: 'https://example.com', CONTENT_URL: 'http://example.com' }),
    ).toThrow(/CONTENT_URL: must be another host/);
  });

  it('names every wrong variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(
      /PORT[\s\S]*DATABASE_URL/,
    );
    expect(() => loadConfig({ BODY_IDLE_TIMEOUT_MS: '50' })).toThrow(/BODY_IDLE_TIMEOUT_MS/);
    expect(() => loadConfig({ BODY_IDLE_TIMEOUT_MS: 'soon' })).toThrow(/BODY_IDLE_TIMEOUT_MS/);
    expect(() => loadConfig({ SECRET_KEY: 'short' })).toThrow(
      /SECRET_KEY: must be at least 32 characters/,
    );
    expect(() => loadConfig({ ADMIN_EMAIL: 'nope' })).toThrow(/ADMIN_EMAIL/);
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ PUBLIC_MAX_AGE_SECONDS: '-1' })).toThrow(/PUBLIC_MAX_AGE_SECONDS/);
    expect(loadConfig({ PUBLIC_MAX_AGE_SECONDS: '0' }).publicMaxAgeSeconds).toBe(0);
  });

  it('reads TRUST_PROXY and PostgreSQL URLs', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).databaseUrl).toBe('postgres://u@h/db');
  });

  it('reads SMTP_URL and MAIL_FROM, and names SMTP_URL when it is not a usable URL', () => {
    const mail = loadConfig({
      SMTP_URL: 'smtps://mailer:p%40ss@mail.example.com:465',
      PUBLIC_URL: 'https://files.example.com',
    });
    expect(mail.smtpUrl).toBe('smtps://mailer:p%40ss@mail.example.com:465');
    expect(mail.mailFrom).toBe('Upshot <upshot@files.example.com>');
    expect(loadConfig({ MAIL_FROM: 'Files <files@example.com>' }).mailFrom).toBe(
      'Files <files@example.com>',
    );
    expect(loadConfig({}).smtpUrl).toBeUndefined();
    for (const bad of ['smtp://[bad', 'smtp://u:p%zz@host', 'http://mail.example.com', 'smtp://']) {
      expect(() => loadConfig({ SMTP_URL: bad }), bad).toThrow(/SMTP_URL/);
    }
    // The message names the variable, never the credentials in it.
    expect(() => loadConfig({ SMTP_URL: 'smtp://u:secret%zz@host' })).not.toThrow(/secret/);
  });

  it('refuses an ADMIN_USERNAME with a line break or other control character', () => {
    expect(() => loadConfig({ ADMIN_USERNAME: 'ad\nmin' })).toThrow(/ADMIN_USERNAME/);
  });

  it('reads the S3 settings, and names each one missing or wrong', () => {
    expect(loadConfig({}).storage).toEqual({ driver: 'local' });
    const s3 = {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'upshot-files',
      S3_ACCESS_KEY_ID: 'AKIA',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadConfig(s3).storage).toEqual({
      driver: 's3',
      s3: {
        endpoint: undefined,
        region: 'us-east-1',
        bucket: 'upshot-files',
        accessKeyId: 'AKIA',
        secretAccessKey: 'secret',
        forcePathStyle: false,
        prefix: undefined,
        serve: 'proxy',
      },
    });
    expect(
      loadConfig({
        ...s3,
        S3_ENDPOINT: 'http://minio:9000',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'upshot',
      }).storage,
    ).toMatchObject({
      s3: { endpoint: 'http://minio:9000', forcePathStyle: true, prefix: 'upshot' },
    });
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(
      /S3_BUCKET: is required[\s\S]*S3_ACCESS_KEY_ID: is required[\s\S]*S3_SECRET_ACCESS_KEY: is required/,
    );
    expect(() => loadConfig({ STORAGE_DRIVER: 'ftp' })).toThrow(/STORAGE_DRIVER/);
    expect(loadConfig({ ...s3, S3_SERVE: 'presigned' }).storage).toMatchObject({
      s3: { serve: 'presigned' },
    });
    expect(() => loadConfig({ ...s3, S3_SERVE: 'redirect' })).toThrow(/S3_SERVE/);
    expect(() => loadConfig({ ...s3, S3_ENDPOINT: 'minio' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ ...s3, S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ ...s3, MAX_UPLOAD_BYTES: String(2 ** 50) })).toThrow(
      /MAX_UPLOAD_BYTES/,
    );
    // The message never shows the secret.
    expect(() => loadConfig({ ...s3, S3_BUCKET: 'x' })).not.toThrow(/secret/);
  });
});
