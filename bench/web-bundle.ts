/**
 * The JavaScript each screen of the web app downloads on a first visit, gzipped: the entry chunk
 * and its static imports, plus the screen's lazily loaded chunk (and the signed-in frame for
 * signed-in screens) with theirs. Builds web/ for production first and reads the Vite manifest;
 * `--no-build` reads the web/dist already there instead. Fails when /login is over budget.
 *
 *   npm run web-bundle -w bench [-- --no-build]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
// @ts-expect-error plain ESM helper shared with `npm start`, no type declarations
import { root } from '../scripts/web-build.mjs';
import { PAGE_ROUTES, SIGNED_IN_LAYOUT, type PageRoute } from '../web/src/route-table.ts';

/** First load of the sign-in screen, gzipped, in kB of 1000 bytes (as Vite reports sizes). */
const LOGIN_BUDGET_BYTES = 130_000;

type ManifestChunk = { file: string; imports?: string[]; dynamicImports?: string[] };
type Manifest = Record<string, ManifestChunk>;

const repoRoot = root as string;
const dist = path.join(repoRoot, 'web/dist');
const manifestPath = path.join(dist, '.vite/manifest.json');

function build() {
  process.stdout.write('Building the web app...\n');
  // NODE_ENV set: a build started from a test runner's environment would be a development one.
  const res = spawnSync('npm', ['run', 'build', '-w', 'web'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (res.status !== 0) throw new Error(`web build failed (exit ${res.status})`);
}

function chunk(manifest: Manifest, key: string): ManifestChunk {
  const found = manifest[key];
  if (!found) throw new Error(`${key} is not in the Vite manifest (renamed or no longer lazy?)`);
  return found;
}

/** A chunk's file and every file it imports statically, transitively. */
function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const entry = chunk(manifest, key);
  if (into.has(entry.file)) return into;
  into.add(entry.file);
  for (const imported of entry.imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

const gzipCache = new Map<string, number>();
function gzipSize(file: string): number {
  let size = gzipCache.get(file);
  if (size === undefined) {
    size = zlib.gzipSync(fs.readFileSync(path.join(dist, file))).length;
    gzipCache.set(file, size);
  }
  return size;
}

const total = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + gzipSize(f), 0);
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function routeFiles(manifest: Manifest, route: PageRoute): Set<string> {
  const files = staticClosure(manifest, 'index.html');
  staticClosure(manifest, `src/pages/${route.page}.tsx`, files);
  if (route.access === 'user' || route.access === 'admin') {
    staticClosure(manifest, `src/${SIGNED_IN_LAYOUT}.tsx`, files);
  }
  return files;
}

function main() {
  if (!process.argv.includes('--no-build')) build();
  if (!fs.existsSync(manifestPath)) {
    throw new Error(`${manifestPath} is missing: is build.manifest on in web/vite.config.ts?`);
  }
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;

  const entry = total(staticClosure(manifest, 'index.html'));
  const rows = PAGE_ROUTES.map((route) => {
    const files = routeFiles(manifest, route);
    return {
      path: route.path === '*' ? '* (unknown path)' : route.path,
      bytes: total(files),
      files,
    };
  });
  const login = rows.find((row) => row.path === '/login');
  if (!login) throw new Error('the route table has no /login');

  const width = Math.max(...rows.map((row) => row.path.length), 'entry alone'.length);
  console.log('JavaScript on first load, gzipped (level 6, as Vite reports it):\n');
  console.log(`  ${'entry alone'.padEnd(width)}  ${kB(entry).padStart(9)}`);
  for (const row of rows) {
    const note = row === login ? `  budget ${kB(LOGIN_BUDGET_BYTES)}` : '';
    console.log(
      `  ${row.path.padEnd(width)}  ${kB(row.bytes).padStart(9)}  ${String(row.files.size).padStart(2)} files${note}`,
    );
  }
  const over = login.bytes > LOGIN_BUDGET_BYTES;
  console.log(
    `\n/login: ${kB(login.bytes)} of ${kB(LOGIN_BUDGET_BYTES)} (${((login.bytes / LOGIN_BUDGET_BYTES) * 100).toFixed(0)}%)${over ? ' - OVER BUDGET' : ''}`,
  );
  if (over) process.exitCode = 1;
}

main();
