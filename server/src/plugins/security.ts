/**
 * Security headers for the app's own pages and answers (@fastify/helmet): a content security
 * policy for index.html and the API reference, no framing, a strict referrer policy. The file
 * links set their own, stricter policy (a sandbox) over these; see serving/presenter.ts.
 */
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { publicUrl: string },
): Promise<void> {
  // Links and thumbnails are on PUBLIC_URL, which may be another origin than the one serving.
  const linkOrigin = new URL(options.publicUrl).origin;
  await app.register(fastifyHelmet, {
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
}
