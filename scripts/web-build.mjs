// Builds the web app when web/dist is missing or older than any of its sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const sources = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/package.json',
  'contract/src',
];

export function newestMtime(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(p)
    .reduce((max, name) => Math.max(max, newestMtime(path.join(p, name))), stat.mtimeMs);
}

export function webBuildIsStale() {
  const index = path.join(root, 'web/dist/index.html');
  if (!fs.existsSync(index)) return true;
  const built = fs.statSync(index).mtimeMs;
  return sources.some((s) => newestMtime(path.join(root, s)) > built);
}

export function ensureWebBuilt() {
  if (!webBuildIsStale()) return;
  process.stdout.write('Building the web app...\n');
  // Always a production build, whatever NODE_ENV the caller runs under (vitest sets 'test').
  const res = spawnSync('npm', ['run', 'build', '-w', 'web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (res.status !== 0) throw new Error(`web build failed (exit ${res.status})`);
}
