/** Boot: config -> database -> migrations -> first admin -> jobs -> listen. */
import { boot } from './boot.ts';
import { ConfigError } from './config.ts';
import { startJobs } from './jobs/scheduler.ts';
import { installProcessGuard } from './plugins/process-guard.ts';

async function main(): Promise<void> {
  const { app, config, handle, firstAdmin, jobs } = await boot();
  installProcessGuard(app.log);
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

  const stopJobs = startJobs(jobs, app.log);

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
