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

/** The preview page's files in the build `{ preview: true }` makes: its entry, style and a chunk. */
export const PREVIEW_FILES = [
  '/assets/preview-def456.js',
  '/assets/preview-def456.css',
  '/assets/python-0a1b2c.js',
];

export function createWebDist(options: { preview?: boolean } = {}): WebDist {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-dist-'));
  const files: Record<string, string> = {
    'index.html': INDEX_HTML,
    'assets/index-abc123.js': 'console.log(1)',
    'assets/index-abc123.css': 'body{}',
    'favicon.svg': '<svg/>',
  };
  if (options.preview) {
    for (const file of PREVIEW_FILES) files[file.slice(1)] = '/* preview */';
    // As Vite writes it: the page's entry, and a language loaded on use.
    files['.vite/manifest.json'] = JSON.stringify({
      'src/preview/main.ts': {
        file: 'assets/preview-def456.js',
        css: ['assets/preview-def456.css'],
        dynamicImports: ['python.js'],
      },
      'python.js': { file: 'assets/python-0a1b2c.js' },
      'index.html': { file: 'assets/index-abc123.js', css: ['assets/index-abc123.css'] },
    });
  }
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return {
    dir,
    files: Object.keys(files)
      .filter((name) => !name.startsWith('.vite/'))
      .map((name) => `/${name}`),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
