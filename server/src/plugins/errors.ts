/** The one mapping from thrown errors to HTTP answers: `{ error, message }` bodies everywhere. */
import type { ErrorBody } from '@upshot/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, RateLimitError, UnauthorizedError } from '../errors.ts';
import { REQUEST_ID_HEADER } from './request-context.ts';

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty; send JSON or no content type',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
};

/** Also Fastify's `frameworkErrors` (app.ts): a URL the router cannot decode gets this body too. */
export function sendError(
  err: FastifyError | AppError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  // Set by the request's steps, but the router's refusals (frameworkErrors) come before them.
  if (!reply.hasHeader(REQUEST_ID_HEADER)) reply.header(REQUEST_ID_HEADER, request.id);
  if (err instanceof AppError) {
    if (err instanceof RateLimitError) reply.header('retry-after', String(err.retryAfterSeconds));
    if (err instanceof UnauthorizedError && err.challenge) {
      reply.header('www-authenticate', err.challenge);
    }
    const body: ErrorBody = { error: err.code, message: err.message };
    return reply.status(err.status).send(body);
  }
  const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500;
  if (status >= 400 && status < 500) {
    const code =
      status === 413 ? 'payload_too_large' : status === 404 ? 'not_found' : 'validation_error';
    const fastifyCode = 'code' in err && typeof err.code === 'string' ? err.code : '';
    const message = FASTIFY_MESSAGES[fastifyCode] ?? err.message;
    return reply.status(status).send({ error: code, message } satisfies ErrorBody);
  }
  request.log.error({ err }, 'unhandled error');
  return reply
    .status(500)
    .send({ error: 'internal_error', message: 'Something went wrong' } satisfies ErrorBody);
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(sendError);
}
