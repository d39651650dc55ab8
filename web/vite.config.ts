import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
// By path, not by package name: Vite bundles a relative import into the config, and would
// leave the package to Node, which cannot load TypeScript.
import { ROOT_FILES, SERVER_PREFIXES, SPA_ROUTES } from '../contract/src/constants.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a .br and a .gz beside each text file of the build, which the server sends as the
 * browser accepts (server/src/plugins/web-app.ts): compressed once here, at the highest levels,
 * rather than on every request. A copy no smaller than its file is left out.
 */
function precompress(): Plugin {
  return {
    name: 'upshot:precompress',
    apply: 'build',
    async writeBundle({ dir }) {
      if (!dir) return;
      const names = await fs.readdir(dir, { recursive: true });
      const texts = names.filter(
        (name) =>
          /\.(html|js|css|svg|json|txt)$/.test(name) && !name.startsWith(`.vite${path.sep}`),
      );
      await Promise.all(
        texts.map(async (name) => {
          const file = path.join(dir, name);
          const data = await fs.readFile(file);
          const copies = {
            br: await brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
            gz: await gzip(data, { level: 9 }),
          };
          for (const [ext, copy] of Object.entries(copies)) {
            if (copy.length < data.length) await fs.writeFile(`${file}.${ext}`, copy);
          }
        }),
      );
    },
  };
}

/**
 * The brief dismisses a toast swiped 20 px; sonner hard-codes 45 px and has no prop for it.
 * This sets the constant in sonner's own module, and fails the build if sonner changes it.
 */
function sonnerSwipeThreshold(px: number): Plugin {
  const original = 'const SWIPE_THRESHOLD = 45;';
  return {
    name: 'upshot:sonner-swipe-threshold',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js/.test(id)) return null;
      if (!code.includes(original)) {
        this.error(`sonner no longer declares "${original}": update the swipe threshold plugin`);
      }
      return { code: code.replace(original, `const SWIPE_THRESHOLD = ${px};`), map: null };
    },
  };
}

/** Where `npm run dev` runs the server (scripts/dev.mjs); the app is opened on Vite's port. */
const DEV_SERVER = `http://127.0.0.1:${process.env.PORT || 3000}`;

/**
 * The paths Vite's dev server hands to the server, so that the two answer as one origin as the
 * server alone does in production: the server's prefixes (/api, /thumb, /d, /metrics...), and
 * any other single segment that is not a page of the app, a file of web/public or one of Vite's
 * own (/@vite/..., /__...): the file links, /{slug}.
 */
function serverPaths(): string {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pages = SPA_ROUTES.map((route) => route.slice(1)).filter((page) => page !== '');
  const appFiles = [...pages, ...ROOT_FILES, 'index.html'].map(escape).join('|');
  const prefix = `(?:${SERVER_PREFIXES.join('|')})(?:[/?]|$)`;
  const link = `(?!(?:${appFiles})(?:\\?|$)|@|__)[^/?]+(?:\\?|$)`;
  return `^/(?:${prefix}|${link})`;
}

export default defineConfig({
  plugins: [react(), tailwindcss(), sonnerSwipeThreshold(20), precompress()],
  // Served from source in development too, so the swipe threshold plugin applies there.
  optimizeDeps: { exclude: ['sonner'] },
  // Vite's output and the server's share one terminal under `npm run dev`.
  clearScreen: false,
  server: {
    // The port PUBLIC_URL names in development (scripts/dev.mjs): taken, it is an error.
    port: 5173,
    strictPort: true,
    proxy: { [serverPaths()]: DEV_SERVER },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks each page needs (bench/web-bundle.ts reads it).
    manifest: true,
    rollupOptions: {
      // The app, and the preview page's own small script (server/src/modules/links/preview-page.ts
      // finds its hashed name in the manifest): neither loads anything of the other.
      input: { index: 'index.html', preview: 'src/preview/main.ts' },
      // No manualChunks: Rollup splits by what each lazily loaded page imports, so a screen
      // downloads the libraries it uses and not those of every other screen.
      onwarn(warning, warn) {
        // zod ships explanatory comments next to its @__PURE__ marks; Rollup only notes it drops them.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/node_modules/zod/')) {
          return;
        }
        warn(warning);
      },
    },
  },
});
