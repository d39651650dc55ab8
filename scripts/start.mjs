// `npm start`: build the web app and the server when their builds are missing or stale, then
// run the server (it runs the migrations on boot), started again with a backoff if it fails.
import { ensureServerBuilt, serverNodeArgs } from './server-build.mjs';
import { supervise } from './supervise.mjs';
import { ensureWebBuilt } from './web-build.mjs';

ensureWebBuilt();
const main = await ensureServerBuilt();

const code = await supervise(process.execPath, [...serverNodeArgs(), main], {
  onRestart: (pauseMs, status) =>
    process.stderr.write(
      `Upshot exited with code ${status}; starting it again in ${pauseMs / 1000} s\n`,
    ),
});
process.exit(code);
