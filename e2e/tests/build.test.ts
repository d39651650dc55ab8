/**
 * When `npm start` (and these tests) rebuild the web app and the server: whenever the sources
 * differ from those the build was made from, whatever the files' dates say. An unpacked release
 * keeps the archive's dates, which can be older than the build it replaces.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
// @ts-expect-error plain ESM helpers shared with `npm start`, no type declarations
import { buildIsStale, sourcesDigest } from '../../scripts/web-build.mjs';

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
