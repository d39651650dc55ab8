/**
 * HTML forms (application/x-www-form-urlencoded), for the routes whose table entry says it
 * `consumes` them (the deletion link's confirmation page posts one); every other route answers
 * 415 to a form, as before, so no JSON endpoint can be posted cross-site as a plain form.
 * Small bodies only; each field appears once (a repeated field keeps its first value), and the
 * route's schema validates the fields like a JSON body's.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

const FORM = 'application/x-www-form-urlencoded';
const FORM_BODY_LIMIT = 16 * 1024;

export function registerFormBody(app: FastifyInstance): void {
  app.addContentTypeParser(
    FORM,
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (request, body, done) => {
      if (!request.routeOptions.config.endpoint?.consumes?.includes(FORM)) {
        done(new AppError('validation_error', 415, 'Unsupported content type'), undefined);
        return;
      }
      const fields: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [name, value] of new URLSearchParams(body as string)) {
        if (!(name in fields)) fields[name] = value;
      }
      done(null, fields);
    },
  );
}
