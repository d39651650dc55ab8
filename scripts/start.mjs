// `npm start`: build the web app and the server when their builds are missing or stale, then
// run the server (it runs the migrations on boot).
import { spawn } from 'node:child_process';
import { ensureServerBuilt, serverNodeArgs } from './server-build.mjs';
import { ensureWebBuilt } from './web-build.mjs';

ensureWebBuilt();
const main = await ensureServerBuilt();

const server = spawn(process.execPath, [...serverNodeArgs(), main], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
