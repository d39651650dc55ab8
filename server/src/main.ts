/** Boot: config -> database -> migrations -> first admin -> jobs -> listen. */
import { boot } from './boot.ts';
import { ConfigError } from './config.ts';
import { startJobs } from './jobs/scheduler.ts';

async function main(): Promise<void> {
  const { app, config, handle, firstAdmin } = await boot();
  if (firstAdmin) {
    const lines = [
      '',
      '  First admin account created',
      `    email:    ${firstAdmin.user.email}`,
      `    username: ${firstAdmin.user.username}`,
      firstAdmin.generatedPassword
        ? `    password: ${firstAdmin.generatedPassword}   (shown only this once)`
        : '    password: the one in ADMIN_PASSWORD',
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }

  const stopJobs = startJobs(
    [
      { name: 'auth-sweep', intervalMs: 60 * 60 * 1000, run: () => app.services.auth.sweep() },
      {
        name: 'chunked-upload-expiry',
        intervalMs: 10 * 60 * 1000,
        run: () => app.services.chunkedUploads.sweepExpired(),
      },
      {
        name: 'missing-digests',
        intervalMs: 10 * 60 * 1000,
        run: () => app.services.uploads.hashMissing(),
      },
      {
        name: 'orphaned-bytes',
        intervalMs: 6 * 60 * 60 * 1000,
        run: () => app.services.storageSweeper.sweep(),
      },
    ],
    app.log,
  );

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    stopJobs();
    await app.close();
    await handle.db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  process.stdout.write(`Upshot is listening on ${config.publicUrl}\n`);
}

main().catch((err: unknown) => {
  const text =
    err instanceof ConfigError
      ? err.message
      : `Upshot failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
  process.stderr.write(`${text}\n`);
  process.exit(1);
});
