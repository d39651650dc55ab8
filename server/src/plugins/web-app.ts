/**
 * Serves the built web app: hashed /assets/* cached for a year, index.html for SPA routes, each
 * file as the .br or .gz the build made beside it when the browser accepts one.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_BASE, SPA_ROUTES, type ErrorBody } from '@upshot/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { IsContentRequest } from './content-origin.ts';

/** The preview page's entry in the web build (web/vite.config.ts). */
export const PREVIEW_ENTRY = 'src/preview/main.ts';

type ManifestEntry = {
  file: string;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
};

/**
 * The preview page's script and stylesheets, as the web build named them (hashed, under
 * /assets/), read once from its manifest; none when the app is not built. `files` is every
 * file the page may load (its chunks, static or imported on use), which a separate content
 * origin serves (plugins/content-origin.ts).
 */
export function readPreviewAssets(distDir: string): {
  script: string | null;
  styles: string[];
  files: ReadonlySet<string>;
} {
  let manifest: Record<string, ManifestEntry>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8'));
  } catch {
    return { script: null, styles: [], files: new Set() };
  }
  const entry = manifest[PREVIEW_ENTRY];
  if (!entry) return { script: null, styles: [], files: new Set() };
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(`/${chunk.file}`)) return;
    files.add(`/${chunk.file}`);
    for (const css of chunk.css ?? []) files.add(`/${css}`);
    for (const next of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) visit(next);
  };
  visit(PREVIEW_ENTRY);
  return { script: `/${entry.file}`, styles: (entry.css ?? []).map((css) => `/${css}`), files };
}

export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  /** Also on the not-found page a file link falls back to (those routes set their own). */
  securityHeaders: Readonly<Record<string, string>>,
  /**
   * With CONTENT_URL: a request to the content origin is never answered with the app's page,
   * but with the links' own not-found page (`notFound`).
   */
  content: {
    isContentRequest: IsContentRequest;
    notFound: (reply: FastifyReply) => FastifyReply;
  } | null = null,
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
    if (content?.isContentRequest?.(request)) return content.notFound(reply);
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
