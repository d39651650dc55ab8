/** Boot: config -> database -> migrations -> first admin -> jobs -> listen; SIGTERM: drain. */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { boot } from './boot.ts';
import { ConfigError } from './config.ts';
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

  // The open connections, for the shutdown to tell clients (proxies) which ones it will close.
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  /**
   * A keep-alive connection busy when draining starts would go idle after its answer, and a
   * proxy could send its next request on it just as the idle sweep closes it (a POST then
   * fails: the proxy cannot know whether it ran). So an answer not yet begun says
   * "Connection: close", and the connection of one already under way is closed as soon as it
   * ends (when idle: a pipelined request is answered first). Requests that arrive while
   * draining are answered with "Connection: close" by Fastify. A connection's current response
   * is Node's `_httpMessage`, which Node's own closeIdleConnections() reads too.
   */
  const closeAfterAnswers = () => {
    for (const socket of sockets) {
      const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (!res) continue;
      if (!res.headersSent) res.setHeader('connection', 'close');
      // Node's own test of idleness: not a connection whose next request has begun.
      else res.once('finish', () => app.server.closeIdleConnections());
    }
  };

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
    closeAfterAnswers();
    // A connection whose request ends while draining would otherwise stay open until its
    // keep-alive timeout; Node closes only those idle at the moment the server closes.
    const idleSweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
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
