// Bundles the server (and the shared contract) into server/dist/main.js (and the hash worker
// and the uploader script templates beside it) for plain `node`:
// no TypeScript loader at run time, which keeps the process smaller. npm packages stay external.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { buildIsStale, root, sourcesDigest } from './web-build.mjs';

const outdir = path.join(root, 'server/dist');
const out = path.join(outdir, 'main.js');
const sources = ['server/src', 'server/package.json', 'contract/src'];
const marker = path.join(outdir, '.sources-digest');

/**
 * Node's options for the built server, as `npm start`, the Dockerfile and the browser tests run
 * it: source maps for stack traces; no memory reducer (V8's collections that shrink the heap
 * once a process goes quiet: the first second of traffic after a quiet spell was then answered
 * with a p99 of 15-71 ms instead of 3-7, docs/PERFORMANCE.md); and young-generation
 * semi-spaces of at most 4 MiB (Node's default grows them to 16 MiB), which keeps the heap near
 * 50 MiB during long uploads instead of letting it climb past 100 MiB (docs/PERFORMANCE.md,
 * "S3"). NODE_OPTIONS that set their own semi-space size win.
 */
export function serverNodeArgs(env = process.env) {
  const args = ['--enable-source-maps', '--no-memory-reducer'];
  if (!/max[-_]semi[-_]space[-_]size/.test(env.NODE_OPTIONS ?? ''))
    args.push('--max-semi-space-size=4');
  return args;
}

export function serverBuildIsStale() {
  return buildIsStale(out, marker, sources);
}

export async function ensureServerBuilt() {
  if (!serverBuildIsStale()) return out;
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'server/package.json'), 'utf8'));
  const external = Object.keys(pkg.dependencies).filter((name) => name !== '@upshot/contract');
  await build({
    // The hash worker is a thread of its own, loaded from beside main.js.
    entryPoints: {
      main: path.join(root, 'server/src/main.ts'),
      'hash-worker': path.join(root, 'server/src/lib/hash-worker.ts'),
    },
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    external,
    logLevel: 'warning',
  });
  // The uploader script templates, read at run time from beside the module that fills them.
  fs.cpSync(
    path.join(root, 'server/src/modules/uploaders/templates'),
    path.join(outdir, 'templates'),
    {
      recursive: true,
    },
  );
  fs.writeFileSync(marker, sourcesDigest(sources));
  return out;
}
