// Keeps a process running, as `npm start` runs the server: started again after it exits with
// a failure (an uncaught exception ends the server with code 1), after a pause that doubles
// with each failure in a row (1 s, 2 s, 4 s ... 30 s) and starts again at 1 s once a run has
// lasted a minute. SIGINT and SIGTERM are passed on, and end the supervision with the child's
// code once it has exited.
import { spawn } from 'node:child_process';

const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 30_000;
const STEADY_MS = 60_000;

/**
 * Runs `command args` until it exits 0 or a signal comes; resolves with the exit code to end
 * with. `onRestart(pauseMs)` is told before each pause (tests shorten the pauses with `scale`).
 */
export function supervise(command, args, options = {}) {
  const { scale = 1, onRestart = () => {}, env = process.env } = options;
  let child = null;
  let stopping = false;
  let failures = 0;
  let timer = null;
  return new Promise((resolve) => {
    const forward = (signal) => () => {
      stopping = true;
      if (timer) {
        clearTimeout(timer);
        resolve(0);
      } else child?.kill(signal);
    };
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    const done = (code) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code);
    };
    const start = () => {
      timer = null;
      const startedAt = Date.now();
      child = spawn(command, args, { stdio: 'inherit', env });
      child.on('exit', (code, signal) => {
        const status = code ?? (signal ? 1 : 0);
        if (stopping || status === 0) return done(status);
        failures = Date.now() - startedAt >= STEADY_MS * scale ? 1 : failures + 1;
        const pause = Math.min(FIRST_PAUSE_MS * 2 ** (failures - 1), LONGEST_PAUSE_MS) * scale;
        onRestart(pause, status);
        timer = setTimeout(start, pause);
      });
    };
    start();
  });
}
