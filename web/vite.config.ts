import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig({
  plugins: [react(), tailwindcss(), sonnerSwipeThreshold(20)],
  // Served from source in development too, so the plugin above applies there.
  optimizeDeps: { exclude: ['sonner'] },
  server: {
    // The API runs on its own port in development; in production the server serves this app itself.
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks each page needs (bench/web-bundle.ts reads it).
    manifest: true,
    rollupOptions: {
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
