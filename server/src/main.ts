/** Boot: config -> database -> migrations -> first admin -> jobs -> listen; SIGTERM: drain. */
import { boot } from './boot.ts';
import { ConfigError } from './config.ts';
import { drainable } from './plugins/drain.ts';
import { installProcessGuard } from './plugins/process-guard.ts';

/** While draining, how often connections that have just gone idle are closed. */
const IDLE_SWEEP_MS = 50;
/** Past the shutdown timeout, how long closing may still take before the process just ends. */
const EXIT_GRACE_MS = 5000;

async function main(): Promise<void> {
  const { app, config, handle, firstAdmin, jobs, jobRunner, closeStorage } = await boot();
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

  const stopJobs = jobRunner.start(jobs);

  // Closing idle connections never cuts an answer still being sent (plugins/drain.ts).
  const drain = drainable(app.server);

  /**
   * Stops accepting connections, lets requests in flight finish for up to SHUTDOWN_TIMEOUT_MS
   * (then closes their connections), answers those in flight and those still arriving on open
   * connections with "Connection: close", closes keep-alive connections as soon as they are idle,
   * waits for job runs, closes the database and the store, and exits 0.
   */
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const timeoutMs = config.shutdownTimeoutMs;
    app.log.info({ signal, timeoutMs }, 'shutting down');
    const jobsStopped = stopJobs();
    drain.closeAfterAnswers();
    // A connection whose request ends while draining would otherwise stay open until its
    // keep-alive timeout; server.close() closes only those idle at that moment.
    const idleSweep = setInterval(drain.closeIdle, IDLE_SWEEP_MS);
    const deadline = setTimeout(() => {
      app.log.warn({ timeoutMs }, 'requests still in flight at the shutdown timeout: cut off');
      app.server.closeAllConnections();
    }, timeoutMs);
    const giveUp = setTimeout(() => {
      app.log.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, timeoutMs + EXIT_GRACE_MS);
    giveUp.unref();
    try {
      await app.close();
      clearInterval(idleSweep);
      await jobsStopped;
      clearTimeout(deadline);
      await handle.db.destroy();
      closeStorage();
      app.log.info('shut down');
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  // `on`, not `once`: a second signal (a supervisor and `npm start` both passing one on, a
  // second Ctrl-C) must not end the process in the middle of draining.
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

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
