/**
 * Registers routes from the contract's route table: a module pairs each table entry with a
 * handler (`route(API.x, handler)`), and this file turns the pair into a Fastify route whose
 * params, query and body are validated by the entry's zod schemas and whose answer is
 * serialized through its response schema, so a field that is not in the contract never leaves
 * the server. Access (public, user, admin) is checked before the body is read, by checkAccess
 * (one of the request steps app.ts runs on every request).
 */
import { API, ErrorBody, type Endpoint } from '@upshot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ForbiddenError, PasswordChangeRequiredError, UnauthorizedError } from '../errors.ts';
import { illFormedText, toValidationError } from '../lib/validate.ts';
import type { Auth } from './auth.ts';
import type { RequestStep } from './request-steps.ts';
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
    // Files and thumbnails are not JSON: nothing to serialize, and their errors are not either.
    ...(raw ? {} : { response: { ...response, '4xx': ErrorBody, '5xx': ErrorBody } }),
    ...(endpoint.access === 'public' ? {} : { security: [{ bearer: [] }, { apiToken: [] }] }),
  } as FastifySchema;
}

/** What a user whose password must change may still call: that change, who they are, sign-out. */
const WHILE_PASSWORD_MUST_CHANGE: ReadonlySet<Endpoint> = new Set([
  API.changePassword,
  API.me,
  API.logout,
]);

/**
 * The step that holds a route to its entry's access rule (after the credentials' step): public
 * entries, and requests that matched no route, have nothing to check.
 */
export const checkAccess: RequestStep = (request, _reply, route) => {
  const { endpoint } = route;
  if (!endpoint || endpoint.access === 'public') return;
  if (!request.auth) throw new UnauthorizedError();
  if (request.auth.user.mustChangePassword && !WHILE_PASSWORD_MUST_CHANGE.has(endpoint)) {
    throw new PasswordChangeRequiredError();
  }
  if (endpoint.access === 'admin' && request.auth.user.role !== 'admin') throw new ForbiddenError();
};

/**
 * The keys of a schema that is exactly an object of unconstrained strings (the links' path
 * parameters, `z.object({ slug: z.string() })`), else null: such input is checked by looking
 * at its fields, which gives what zod would (the same object of strings, or zod's own error),
 * without zod's machinery on every download.
 */
export function plainStringKeys(schema: z.ZodType): string[] | null {
  const def = (schema as unknown as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  if (
    !def ||
    def.type !== 'object' ||
    Object.keys(def).some((k) => k !== 'type' && k !== 'shape')
  ) {
    return null;
  }
  const shape = def.shape as Record<string, { _zod?: { def?: Record<string, unknown> } }>;
  const keys = Object.keys(shape);
  const plain = (field: (typeof shape)[string]) => {
    const d = field._zod?.def;
    return d !== undefined && d.type === 'string' && Object.keys(d).length === 1;
  };
  return keys.every((k) => plain(shape[k]!)) ? keys : null;
}

/** Checks input against a contract schema: its value as zod outputs it, or the error naming the field. */
export function compileValidator(schema: z.ZodType) {
  const validate = (data: unknown) => {
    const result = schema.safeParse(data, { reportInput: true });
    if (!result.success) return { error: toValidationError(result.error) };
    const illFormed = illFormedText(result.data);
    return illFormed ? { error: illFormed } : { value: result.data };
  };
  const keys = plainStringKeys(schema);
  if (!keys) return validate;
  return (data: unknown) => {
    const value: Record<string, string> = {};
    for (const key of keys) {
      const field = (data as Record<string, unknown> | null | undefined)?.[key];
      if (typeof field !== 'string') return validate(data);
      value[key] = field;
    }
    return { value };
  };
}

/** Validation through the contract's zod schemas, with the message naming the field. */
export function registerRouteTable(app: FastifyInstance, routes: readonly RouteDef[]): void {
  // The entries' access rules hold only where the access step runs: no routes without it.
  if (!app.hasDecorator('requestSteps') || !app.requestSteps.includes(checkAccess)) {
    throw new Error('registerRouteTable: register checkAccess among the request steps first');
  }
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
