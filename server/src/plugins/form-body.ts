/**
 * HTML forms (application/x-www-form-urlencoded): the deletion link's confirmation page posts
 * one. Small bodies only; each field appears once (a repeated field keeps its first value), and
 * the route's schema validates the fields like a JSON body's.
 */
import type { FastifyInstance } from 'fastify';

const FORM_BODY_LIMIT = 16 * 1024;

export function registerFormBody(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      const fields: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(body as string)) {
        if (!(name in fields)) fields[name] = value;
      }
      done(null, fields);
    },
  );
}
