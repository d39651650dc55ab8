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

/** Node's options for the built server, as `npm start`, the Dockerfile and the browser tests run it. */
export function serverNodeArgs() {
  return ['--enable-source-maps'];
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
    // Modules imported with import() (the S3 driver, the metrics) become chunks of their own,
    // so their npm packages load only where they are used.
    splitting: true,
    // Beside main.js, where the files it reads relative to itself (hash-worker.js, templates/) are.
    chunkNames: '[name]-[hash]',
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
