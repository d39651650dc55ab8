/**
 * User content on an origin of its own (CONTENT_URL beside PUBLIC_URL): a file, a thumbnail or a
 * preview page never runs where the app's session lives. A request's origin is its Host. The
 * content origin answers only the routes the
 * route table marks `userContent` and the files of the preview page; anything else there is
 * not found (never the web app's page), its root aside (the app's address). The app's origin
 * answers a `userContent` path with a redirect to the same path and query on the content
 * origin: it never serves user bytes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError } from '../errors.ts';

/** Whether a request came to the content origin; null without CONTENT_URL (one origin). */
export type IsContentRequest = ((request: FastifyRequest) => boolean) | null;

/**
 * Told by the Host header alone, which both documented proxies pass on as it came: never by
 * X-Forwarded-Host, which a client could send through a proxy that does not set it.
 */
export function contentRequests(options: {
  publicUrl: string;
  contentUrl: string;
}): IsContentRequest {
  const content = new URL(options.contentUrl);
  if (content.origin === new URL(options.publicUrl).origin) return null;
  const host = content.host.toLowerCase();
  return (request) => request.headers.host?.toLowerCase() === host;
}

export function registerContentOrigin(
  app: FastifyInstance,
  options: {
    publicUrl: string;
    contentUrl: string;
    isContentRequest: IsContentRequest;
    /** Paths the content origin serves beside the link routes: the preview page's files. */
    contentFiles: ReadonlySet<string>;
  },
): void {
  const { isContentRequest } = options;
  if (!isContentRequest) return;
  const content = new URL(options.contentUrl).origin;

  app.addHook('onRequest', (request, reply, done) => {
    const userContent = request.routeOptions.config.endpoint?.userContent === true;
    if (!isContentRequest(request)) {
      if (!userContent) return done();
      // 307: a password form's POST goes on as it was, to where its cookie belongs; and not
      // kept for ever, as a 308 would be, in case CONTENT_URL changes.
      return reply.header('cache-control', 'no-cache').redirect(`${content}${request.url}`, 307);
    }
    if (userContent) return done();
    const path = request.url.split('?', 1)[0]!;
    if (options.contentFiles.has(path)) return done();
    if (path === '/') return reply.redirect(`${options.publicUrl}/`, 302);
    done(new NotFoundError('Not found'));
  });
}
