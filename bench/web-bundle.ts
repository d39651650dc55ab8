/**
 * What each screen of the web app transfers on a first visit: index.html, the entry chunk with
 * its static imports and stylesheet, plus the screen's lazily loaded chunk (and the signed-in
 * frame for signed-in screens) with theirs. Each file is counted as the server sends it: the .br
 * or .gz the build wrote beside it (plugins/web-app.ts picks one by Accept-Encoding), beside its
 * uncompressed size. Builds web/ for production first and reads the Vite manifest; `--no-build`
 * reads the web/dist already there instead. Fails when /login is over budget.
 *
 *   npm run web-bundle -w bench [-- --no-build]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
// @ts-expect-error plain ESM helper shared with `npm start`, no type declarations
import { root } from '../scripts/web-build.mjs';
import { PAGE_ROUTES, SIGNED_IN_LAYOUT, type PageRoute } from '../web/src/route-table.ts';

/** First load of the sign-in screen as a browser accepting brotli receives it, in kB of 1000 bytes. */
const LOGIN_BUDGET_BYTES = 120_000;

type ManifestChunk = { file: string; imports?: string[]; css?: string[] };
type Manifest = Record<string, ManifestChunk>;
type Sizes = { identity: number; gzip: number; br: number };

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

/** A chunk's file, its stylesheets and every file it imports statically, transitively. */
function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const entry = chunk(manifest, key);
  if (into.has(entry.file)) return into;
  into.add(entry.file);
  for (const css of entry.css ?? []) into.add(css);
  for (const imported of entry.imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

/** The file's size, and that of the compressed copy the server would send instead, if any. */
function sizes(file: string): Sizes {
  const size = (name: string) => fs.statSync(path.join(dist, name)).size;
  const sibling = (ext: string) =>
    fs.existsSync(path.join(dist, file + ext)) ? size(file + ext) : size(file);
  return { identity: size(file), gzip: sibling('.gz'), br: sibling('.br') };
}

function total(files: Iterable<string>): Sizes {
  const sum: Sizes = { identity: 0, gzip: 0, br: 0 };
  for (const file of files) {
    const s = sizes(file);
    sum.identity += s.identity;
    sum.gzip += s.gzip;
    sum.br += s.br;
  }
  return sum;
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function routeFiles(manifest: Manifest, route: PageRoute): Set<string> {
  const files = staticClosure(manifest, 'index.html', new Set(['index.html']));
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

  const rows = [
    { path: 'entry alone', files: staticClosure(manifest, 'index.html', new Set(['index.html'])) },
    ...PAGE_ROUTES.map((route) => ({
      path: route.path === '*' ? '* (unknown path)' : route.path,
      files: routeFiles(manifest, route),
    })),
  ].map((row) => ({ ...row, bytes: total(row.files) }));
  const login = rows.find((row) => row.path === '/login');
  if (!login) throw new Error('the route table has no /login');

  const width = Math.max(...rows.map((row) => row.path.length));
  const cell = (text: string) => text.padStart(14);
  console.log('First load (index.html, JavaScript, CSS) as the server sends it:\n');
  console.log(
    `  ${''.padEnd(width)}  files${cell('uncompressed')}${cell('gzip')}${cell('brotli')}`,
  );
  for (const row of rows) {
    const note = row === login ? `  budget ${kB(LOGIN_BUDGET_BYTES)} (brotli)` : '';
    console.log(
      `  ${row.path.padEnd(width)}  ${String(row.files.size).padStart(5)}` +
        `${cell(kB(row.bytes.identity))}${cell(kB(row.bytes.gzip))}${cell(kB(row.bytes.br))}${note}`,
    );
  }
  const over = login.bytes.br > LOGIN_BUDGET_BYTES;
  console.log(
    `\n/login: ${kB(login.bytes.br)} of ${kB(LOGIN_BUDGET_BYTES)} (${((login.bytes.br / LOGIN_BUDGET_BYTES) * 100).toFixed(0)}%)${over ? ' - OVER BUDGET' : ''}`,
  );
  if (over) process.exitCode = 1;
}

main();
