/**
 * Registers routes from the contract's route table: a module pairs each table entry with a
 * handler (`route(API.x, handler)`), and this file turns the pair into a Fastify route whose
 * params, query and body are validated by the entry's zod schemas and whose answer is
 * serialized through its response schema, so a field that is not in the contract never leaves
 * the server. Access (public, user, admin) is checked before the body is read, by each route's
 * own `onRequest` hook, after the app's credentials hook (plugins/auth.ts).
 */
import { API, ErrorBody, type Endpoint } from '@upshot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ForbiddenError, PasswordChangeRequiredError, UnauthorizedError } from '../errors.ts';
import { illFormedText, toValidationError } from '../lib/validate.ts';
import type { Auth } from '../lib/caller.ts';
// request.auth is declared there.
import type {} from './auth.ts';
// The route config's ownSecurityHeaders is declared there.
import type {} from './security.ts';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

export type RouteContext<E extends Endpoint> = {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The caller; never null on a route for users or admins. */
  auth: E['access'] extends 'public' ? Auth | null : Auth;
  params: E extends { params: z.ZodType } ? Out<E['params']> : undefined;
  query: E extends { query: z.ZodType } ? Out<E['query']> : undefined;
  body: E extends { body: z.ZodType } ? Out<E['body']> : undefined;
};

/** What a handler answers: a body of one of its success responses, or the reply it sent itself. */
type Answer<E extends Endpoint> =
  { [K in keyof E['responses']]: In<E['responses'][K]> }[keyof E['responses']] | FastifyReply;

export type RouteDef = {
  endpoint: Endpoint;
  handler: (ctx: RouteContext<Endpoint>) => Promise<unknown>;
};

export function route<const E extends Endpoint>(
  endpoint: E,
  handler: (ctx: RouteContext<E>) => Promise<Answer<E>>,
): RouteDef {
  return { endpoint, handler: handler as RouteDef['handler'] };
}

/** What a handler answers unless it says otherwise: 201 for a creation, 204 for no body, else 200. */
function defaultStatus(endpoint: Endpoint): number {
  const statuses = Object.keys(endpoint.responses).map(Number);
  return statuses.includes(201) ? 201 : statuses.includes(204) ? 204 : 200;
}

export function routeSchema(endpoint: Endpoint): FastifySchema {
  const response: Record<string, z.ZodType> = {};
  for (const [status, schema] of Object.entries(endpoint.responses)) {
    if (schema) response[status] = schema;
  }
  const raw = endpoint.produces !== undefined;
  return {
    tags: [endpoint.tag],
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(endpoint.body ? { body: endpoint.body } : {}),
    ...(endpoint.consumes ? { consumes: ['application/json', ...endpoint.consumes] } : {}),
    // Files and thumbnails are not JSON: nothing to serialize (openapi.ts documents their answers).
    ...(raw ? {} : { response: { ...response, '4xx': ErrorBody, '5xx': ErrorBody } }),
    security: endpoint.access === 'public' ? [] : [{ bearer: [] }, { apiToken: [] }],
  } as FastifySchema;
}

/** What a user whose password must change may still call: that change, who they are, sign-out. */
const WHILE_PASSWORD_MUST_CHANGE: ReadonlySet<Endpoint> = new Set([
  API.changePassword,
  API.me,
  API.logout,
]);

/** Holds a request to its entry's access rule (request.auth was set by the credentials hook). */
export function checkAccess(endpoint: Endpoint, request: FastifyRequest): void {
  if (endpoint.access === 'public') return;
  if (!request.auth) throw new UnauthorizedError();
  if (request.auth.user.mustChangePassword && !WHILE_PASSWORD_MUST_CHANGE.has(endpoint)) {
    throw new PasswordChangeRequiredError();
  }
  if (endpoint.access === 'admin' && request.auth.user.role !== 'admin') throw new ForbiddenError();
}

/** Checks input against a contract schema: its value as zod outputs it, or the error naming the field. */
export function compileValidator(schema: z.ZodType) {
  return (data: unknown) => {
    const result = schema.safeParse(data, { reportInput: true });
    if (!result.success) return { error: toValidationError(result.error) };
    const illFormed = illFormedText(result.data);
    return illFormed ? { error: illFormed } : { value: result.data };
  };
}

function readNoBodyAsEmpty(request: FastifyRequest, _reply: FastifyReply, done: () => void) {
  const { headers } = request;
  const sent = headers['transfer-encoding'] !== undefined || Number(headers['content-length']) > 0;
  if (request.body == null && !sent) request.body = {};
  done();
}

/** Validation through the contract's zod schemas, with the message naming the field. */
export function registerRouteTable(app: FastifyInstance, routes: readonly RouteDef[]): void {
  app.setValidatorCompiler<z.ZodType>(({ schema }) => compileValidator(schema));
  app.setSerializerCompiler(serializerCompiler);

  for (const { endpoint, handler } of routes) {
    const status = defaultStatus(endpoint);
    // A file or thumbnail answers HEAD itself (its headers without opening the bytes).
    const raw = endpoint.produces !== undefined && endpoint.method === 'GET';
    app.route({
      method: raw ? ['GET', 'HEAD'] : endpoint.method,
      exposeHeadRoute: !raw,
      url: endpoint.path,
      schema: routeSchema(endpoint),
      // A page of the app's own (HTML) takes the app's headers; files set their own.
      config: { endpoint, ownSecurityHeaders: raw && !endpoint.produces?.includes('text/html') },
      // A request that sends no body at all (a script's bare POST) is read as an empty one:
      // each field is then required or not as the schema says, and a missing one is named.
      ...(endpoint.body ? { preValidation: readNoBodyAsEmpty } : {}),
      // After the app's hooks (the credentials among them), before the body is read.
      onRequest: (request, _reply, done) => {
        try {
          checkAccess(endpoint, request);
          done();
        } catch (err) {
          done(err as Error);
        }
      },
      handler: async (request, reply) => {
        reply.status(status);
        const answer = await handler({
          request,
          reply,
          auth: request.auth as Auth,
          params: request.params as never,
          query: request.query as never,
          body: request.body as never,
        });
        if (answer === reply || reply.sent) return reply;
        if (reply.statusCode === 204) return reply.send();
        return answer;
      },
    });
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route-table entry a route was registered from (the OpenAPI transform reads it). */
    endpoint?: Endpoint;
  }
}
