/** A small built web app in a temporary folder, for tests of what the server answers around it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const INDEX_HTML = '<!doctype html><div id="root"></div>';

export type WebDist = {
  dir: string;
  /** Every file's URL path, e.g. /assets/index-abc123.js. */
  files: string[];
  remove: () => void;
};

export function createWebDist(): WebDist {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-dist-'));
  const files: Record<string, string> = {
    'index.html': INDEX_HTML,
    'assets/index-abc123.js': 'console.log(1)',
    'assets/index-abc123.css': 'body{}',
    'favicon.svg': '<svg/>',
  };
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return {
    dir,
    files: Object.keys(files).map((name) => `/${name}`),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
