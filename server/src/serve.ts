/**
 * A booted server's life: jobs, listening, and its end. SIGTERM, SIGINT or an uncaught exception:
 * drain, then exit (0, or 1 after an uncaught exception, for a supervisor to restart it).
 */
import type { Booted } from './boot.ts';
import type { LogStream } from './lib/log-stream.ts';
import { drainable } from './plugins/drain.ts';
import { installProcessGuard } from './plugins/process-guard.ts';

/** While draining, how often connections that have just gone idle are closed. */
const IDLE_SWEEP_MS = 50;
/** Past the shutdown timeout, how long closing may still take before the process just ends. */
const EXIT_GRACE_MS = 5000;
/** How long the log lines still held may take to be written before the process exits. */
const LOG_FLUSH_MS = 1000;

/**
 * Runs a booted server until it is told to stop (SIGTERM, SIGINT) or an error escapes a request:
 * starts its jobs, listens, and shuts down within bounds.
 */
export async function serve(booted: Booted, logStream: LogStream): Promise<void> {
  const { app, config, handle, firstAdmin, jobs, jobRunner, closeStorage } = booted;
  installProcessGuard(app.log, (reason) => void shutdown(reason, 1));
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
   * waits for job runs, closes the database and the store, and exits with `code`. Nothing in it
   * blocks the event loop, so the timers that bound it always fire.
   */
  let closing = false;
  const exit = async (code: number) => {
    await logStream.endWithin(LOG_FLUSH_MS);
    process.exit(code);
  };
  async function shutdown(reason: string, code = 0) {
    if (closing) return;
    closing = true;
    const timeoutMs = config.shutdownTimeoutMs;
    app.log.info({ reason, timeoutMs }, 'shutting down');
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
      void exit(1);
    }, timeoutMs + EXIT_GRACE_MS);
    giveUp.unref();
    try {
      await app.close();
      clearInterval(idleSweep);
      await jobsStopped;
      clearTimeout(deadline);
      // Before the database: a cut-off upload ends through its error path (its temporary file
      // removed), which may still ask the database.
      await closeStorage();
      await handle.db.destroy();
      app.log.info('shut down');
      await exit(code);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      await exit(1);
    }
  }
  // `on`, not `once`: a second signal (a supervisor and `npm start` both passing one on, a
  // second Ctrl-C) must not end the process in the middle of draining.
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  process.stdout.write(`Upshot is listening on ${config.publicUrl}\n`);
}
