/**
 * Serves the built web app: hashed /assets/* cached for a year, index.html for SPA routes, each
 * file as the .br or .gz the build made beside it when the browser accepts one.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_BASE, SPA_ROUTES, type ErrorBody } from '@upshot/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** The preview page's entry in the web build (web/vite.config.ts). */
export const PREVIEW_ENTRY = 'src/preview/main.ts';

/**
 * The preview page's script and stylesheets, as the web build named them (hashed, under
 * /assets/), read once from its manifest; none when the app is not built.
 */
export function readPreviewAssets(distDir: string): { script: string | null; styles: string[] } {
  let manifest: Record<string, { file: string; css?: string[] }>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8'));
  } catch {
    return { script: null, styles: [] };
  }
  const entry = manifest[PREVIEW_ENTRY];
  if (!entry) return { script: null, styles: [] };
  return { script: `/${entry.file}`, styles: (entry.css ?? []).map((css) => `/${css}`) };
}

export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  /** Also on the not-found page a file link falls back to (those routes set their own). */
  securityHeaders: Readonly<Record<string, string>>,
): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const built = fs.existsSync(indexFile);

  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      // The build's manifest (which chunks each page needs) is for tools, not browsers.
      allowedPath: (pathName) => !pathName.startsWith('/.vite/'),
      index: false,
      // br, else gzip, else the file itself, with Vary: Accept-Encoding (index.html too).
      preCompressed: true,
      cacheControl: false, // set per file below
      setHeaders(reply, sentPath) {
        const filePath = sentPath.replace(/\.(br|gz)$/, '');
        const immutable = filePath.startsWith(path.join(distDir, 'assets') + path.sep);
        reply.header(
          'cache-control',
          filePath === indexFile
            ? 'no-cache'
            : immutable
              ? 'public, max-age=31536000, immutable'
              : 'public, max-age=0, must-revalidate',
        );
      },
    });
  }

  const sendIndex = (reply: FastifyReply, status: number) => {
    reply.headers(securityHeaders);
    if (!built) {
      return reply
        .status(status === 200 ? 503 : status)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet: run `npm run build` (npm start does it for you).');
    }
    return reply.status(status).sendFile('index.html', distDir, { cacheControl: false });
  };

  for (const route of SPA_ROUTES) {
    app.get(route, (_request, reply) => sendIndex(reply, 200));
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (pathname === API_BASE || pathname.startsWith(`${API_BASE}/`) || request.method !== 'GET') {
      const body: ErrorBody = {
        error: 'not_found',
        message: `No route for ${request.method} ${pathname}`,
      };
      return reply.status(404).send(body);
    }
    // The web app draws its own not-found page; the status stays honest.
    return sendIndex(reply, 404);
  });
}
