/**
 * When `npm start` (and these tests) rebuild the web app and the server: whenever the sources
 * differ from those the build was made from, whatever the files' dates say. An unpacked release
 * keeps the archive's dates, which can be older than the build it replaces. And what the build
 * gives browsers: each file compressed once, at build time.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { afterEach, expect, it } from 'vitest';
// @ts-expect-error plain ESM helpers shared with `npm start`, no type declarations
import { buildIsStale, sourcesDigest } from '../../scripts/web-build.mjs';
import { repoRoot, startServer } from '../support/server.ts';

const stale = buildIsStale as (
  built: string,
  marker: string,
  paths: string[],
  base: string,
) => boolean;
const digest = sourcesDigest as (paths: string[], base: string) => string;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

it('is stale when a source changed, even to an older date, and not for dates alone', () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-build-'));
  dirs.push(base);
  fs.mkdirSync(path.join(base, 'src/lib'), { recursive: true });
  fs.writeFileSync(path.join(base, 'src/main.ts'), 'export const a = 1;\n');
  fs.writeFileSync(path.join(base, 'src/lib/b.ts'), 'export const b = 2;\n');
  const built = path.join(base, 'dist.js');
  const marker = path.join(base, 'dist.digest');
  const isStale = () => stale(built, marker, ['src'], base);

  expect(isStale()).toBe(true); // never built
  fs.writeFileSync(built, '// built');
  expect(isStale()).toBe(true); // built, but from what is not known
  fs.writeFileSync(marker, digest(['src'], base));
  expect(isStale()).toBe(false);

  // A release unpacked over it: new contents, dates from 2001 (older than the build).
  const old = new Date('2001-01-01T00:00:00Z');
  fs.writeFileSync(path.join(base, 'src/lib/b.ts'), 'export const b = 3;\n');
  fs.utimesSync(path.join(base, 'src/lib/b.ts'), old, old);
  expect(isStale()).toBe(true);
  fs.writeFileSync(marker, digest(['src'], base));
  // Dates alone change nothing; a file added or renamed does.
  fs.utimesSync(path.join(base, 'src/main.ts'), new Date(), new Date());
  expect(isStale()).toBe(false);
  fs.renameSync(path.join(base, 'src/lib/b.ts'), path.join(base, 'src/lib/c.ts'));
  expect(isStale()).toBe(true);
});

/** The raw bytes and headers of a GET: fetch() would decompress them. */
function getRaw(url: string, acceptEncoding: string) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
      })
      .on('error', reject);
  });
}

it('serves the built page and its scripts compressed as the browser accepts', async () => {
  const server = await startServer();
  try {
    const dist = path.join(repoRoot, 'web/dist');
    const page = await getRaw(`${server.url}/login`, 'gzip, deflate, br, zstd');
    expect(page.headers['content-encoding']).toBe('br');
    const html = zlib.brotliDecompressSync(page.body).toString();
    expect(html).toBe(fs.readFileSync(path.join(dist, 'index.html'), 'utf8'));

    const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const file = fs.readFileSync(path.join(dist, entry!));
    const br = await getRaw(`${server.url}${entry}`, 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.body.length).toBeLessThan(file.length / 2);
    expect(zlib.brotliDecompressSync(br.body)).toEqual(file);
    const gzip = await getRaw(`${server.url}${entry}`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body)).toEqual(file);
  } finally {
    await server.stop();
  }
});

/**
 * The npm packages a built server loads while it starts and answers a request, recorded by a
 * module hook given to it through NODE_OPTIONS (in the module's thread where Node has
 * registerHooks, which also sees require(); else on the loader's thread).
 */
async function packagesLoaded(env: Record<string, string>): Promise<Set<string>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-loaded-'));
  dirs.push(dir);
  const record = JSON.stringify(path.join(dir, 'loaded.txt'));
  const hook = `export function load(url, context, next) {
  fs.appendFileSync(${record}, url + '\\n');
  return next(url, context);
}
`;
  fs.writeFileSync(path.join(dir, 'hooks.mjs'), `import fs from 'node:fs';\n${hook}`);
  const register = path.join(dir, 'register.mjs');
  fs.writeFileSync(
    register,
    `import fs from 'node:fs';
import * as nodeModule from 'node:module';
${hook}
if (nodeModule.registerHooks) nodeModule.registerHooks({ load });
else nodeModule.register(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});
`,
  );
  const server = await startServer({ ...env, NODE_OPTIONS: `--import "${register}"` });
  try {
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  } finally {
    await server.stop();
  }
  const names = fs
    .readFileSync(path.join(dir, 'loaded.txt'), 'utf8')
    .split('\n')
    .map((url) => /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
    .filter((name) => name !== undefined);
  return new Set(names);
}

it('loads the S3, mail and metrics packages only where they are configured', async () => {
  const plain = await packagesLoaded({ STORAGE_DRIVER: 'local', SMTP_URL: '', METRICS_TOKEN: '' });
  expect(plain.has('fastify')).toBe(true); // the record sees what is loaded
  for (const name of ['@aws-sdk/client-s3', 'nodemailer', 'prom-client']) {
    expect(plain.has(name), name).toBe(false);
  }
  const measured = await packagesLoaded({ METRICS_TOKEN: 'a-metrics-token-of-16+' });
  expect(measured.has('prom-client')).toBe(true);
});
