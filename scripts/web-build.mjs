// Builds the web app when web/dist is missing or was built from other sources.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
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

/** A digest of the files under these paths (relative to base): their names and contents. */
export function sourcesDigest(paths, base = root) {
  const hash = crypto.createHash('sha256');
  const add = (rel) => {
    let stat;
    try {
      stat = fs.statSync(path.join(base, rel));
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(path.join(base, rel)).sort()) add(path.join(rel, name));
      return;
    }
    hash
      .update(`${rel}\0`)
      .update(fs.readFileSync(path.join(base, rel)))
      .update('\0');
  };
  for (const p of paths) add(p);
  return hash.digest('hex');
}

/**
 * Whether `built` is missing or was made from other sources than these: the digest of the
 * sources it was built from is kept in `marker`. Not file dates: an unpacked release keeps the
 * archive's, which can be older than the build it replaces.
 */
export function buildIsStale(built, marker, paths, base = root) {
  if (!fs.existsSync(built)) return true;
  try {
    return fs.readFileSync(marker, 'utf8') !== sourcesDigest(paths, base);
  } catch {
    return true;
  }
}

// Under .vite/, which the server never serves (plugins/web-app.ts).
const webMarker = path.join(root, 'web/dist/.vite/sources-digest');

export function webBuildIsStale() {
  return buildIsStale(path.join(root, 'web/dist/index.html'), webMarker, sources);
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
  fs.mkdirSync(path.dirname(webMarker), { recursive: true });
  fs.writeFileSync(webMarker, sourcesDigest(sources));
}
