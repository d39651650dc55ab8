/**
 * Security headers for the app's own pages and answers, made by helmet once at start (a
 * content security policy for index.html and the API reference, no framing, a strict referrer
 * policy) and set on every answer but the file links, which set their own, stricter policy
 * (a sandbox; see links/presenter.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

export type SecurityHeaders = Readonly<Record<string, string>>;

export function securityHeaders(options: { contentUrl: string }): SecurityHeaders {
  // Links and thumbnails are on CONTENT_URL (else PUBLIC_URL), which may be another origin than
  // the one serving.
  const linkOrigin = new URL(options.contentUrl).origin;
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Toast and dialog libraries inject their styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', linkOrigin],
        mediaSrc: ["'self'", linkOrigin],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", linkOrigin],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'same-origin' },
    // For this host only: an operator's other hosts under the same name are not ours to bind.
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
    crossOriginEmbedderPolicy: false,
  });
  // helmet writes its headers on a response; this one only records them.
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return Object.freeze(headers);
}

/** Sets them on every answer but those of routes that set their own. */
export function registerSecurityHeaders(app: FastifyInstance, headers: SecurityHeaders): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.routeOptions.config.ownSecurityHeaders) reply.headers(headers);
    done();
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route sets its own security headers (the file links). */
    ownSecurityHeaders?: boolean;
  }
}
