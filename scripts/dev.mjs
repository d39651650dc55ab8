// `npm run dev`: the server from source under `tsx watch` (restarted when a file it imports
// changes) and Vite's dev server (hot reload) in front of it, one origin on
// http://localhost:5173. Ctrl-C (or SIGTERM, SIGHUP) stops both; so does either one ending.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root } from './web-build.mjs';

const env = {
  ...process.env,
  // Its own data, apart from what `npm start` keeps in ./data.
  DATA_DIR: process.env.DATA_DIR || path.join(root, 'data-dev'),
  // Links are made on the origin the browser uses: Vite's, which hands them to the server.
  PUBLIC_URL: process.env.PUBLIC_URL || 'http://localhost:5173',
  HOST: process.env.HOST || '127.0.0.1',
};
// Each in a process group of its own, so that a Ctrl-C reaches them once, from here: tsx
// watch takes a second SIGINT as an order to kill the server at once. No stdin: a process
// outside the terminal's foreground group that reads it is stopped.
const run = (command, args, cwd) =>
  spawn(path.join(root, 'node_modules/.bin', command), args, {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
const children = [
  run('tsx', ['watch', '--clear-screen=false', 'server/src/main.ts'], root),
  run('vite', [], path.join(root, 'web')),
];

let running = children.length;
let exitCode = 0;
let stopping = false;
const stop = () => {
  // Once: npm passes on the Ctrl-C this process also had from the terminal.
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
};
const ended = (code) => {
  exitCode ||= code;
  running -= 1;
  if (running === 0) process.exit(exitCode);
  stop();
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);
// npm stopped with a SIGTERM of its own passes it to its shell, which dies without passing it
// on: this process, left to another parent, stops the two rather than hold their ports.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stop(), 1000).unref();
for (const child of children) {
  child.on('exit', (code) => ended(code ?? 0));
  child.on('error', (error) => {
    console.error(error.message);
    ended(1);
  });
}
