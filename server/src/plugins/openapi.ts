/**
 * The API reference, generated from the route table: GET /api/openapi.json (OpenAPI 3.1) and
 * an interactive reference at /api/docs. Only routes registered from the table appear, each
 * operation named by its entry's name in the table (its `operationId`), so a client generated
 * from the document calls `login` or `listUploads` as the web app does.
 */
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  API,
  API_TAGS,
  API_TOKEN_HEADER,
  ErrorBody,
  type Endpoint,
  type EndpointName,
  type OtherResponse,
} from '@upshot/contract';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const DOCS_PREFIX = '/api/docs';

const NAMES = new Map<Endpoint, EndpointName>(
  (Object.entries(API) as [EndpointName, Endpoint][]).map(([name, e]) => [e, name]),
);

const SUCCESS: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  206: 'Partial Content: the range the `Range` header asked for',
};

/** What any route answers when it refuses or fails: the error handler's one shape. */
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorBody } },
});
const ERRORS = {
  '4xx': errorResponse(
    'Refused: a stable `error` code and a `message` (for bad input, naming the field)',
  ),
  '5xx': errorResponse('Failed, or a service the server needs did not answer (503)'),
};

const BYTES = z.string().meta({ format: 'binary' });

/** A response's body in each of the given content types. */
function content(types: readonly string[], schema: z.ZodType) {
  return Object.fromEntries(types.map((type) => [type, { schema }]));
}

/**
 * An entry's responses for the document: those with a body as zod schemas (the zod transform
 * turns them into JSON Schema), those without one as @fastify/swagger writes them.
 */
function responsesOf(endpoint: Endpoint) {
  const types = endpoint.produces ?? ['application/json'];
  const withBody: Record<string, unknown> = { ...ERRORS };
  const withoutBody: Record<string, { type: 'null'; description: string }> = {};
  for (const [status, body] of Object.entries(endpoint.responses)) {
    const description = SUCCESS[status] ?? 'OK';
    if (body === null && !endpoint.produces) withoutBody[status] = { type: 'null', description };
    else withBody[status] = { description, content: content(types, body ?? BYTES) };
  }
  const others = Object.entries(endpoint.otherResponses ?? {}) as [string, OtherResponse][];
  for (const [status, { description, produces }] of others) {
    if (produces) withBody[status] = { description, content: content(produces, z.string()) };
    else withoutBody[status] = { type: 'null', description };
  }
  return { withBody, withoutBody };
}

type Operation = {
  operationId?: string;
  summary?: string;
  responses: Record<string, { description: string; content?: unknown }>;
};
type Document = {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
};

/**
 * The HEAD a file route answers: the GET's operation without bodies, under a name of its own
 * (an operationId names one operation).
 */
function headOf(get: Operation): Operation {
  const responses = Object.fromEntries(
    Object.entries(get.responses).map(([status, { content: _, ...rest }]) => [status, rest]),
  );
  return {
    ...get,
    operationId: `${get.operationId}Head`,
    summary: `${get.summary} (headers only)`,
    responses,
  };
}

const SCHEMAS = '#/components/schemas/';

/**
 * The component schemas an operation refers to, directly or through another: the zod
 * registry holds every schema with an id, in an input and an output version, and most are
 * used only one way.
 */
function usedSchemas(document: Document): Record<string, unknown> {
  const all = document.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key !== '$ref' || typeof value !== 'string') visit(value);
      else if (value.startsWith(SCHEMAS) && !used.has(value.slice(SCHEMAS.length))) {
        used.add(value.slice(SCHEMAS.length));
        visit(all[value.slice(SCHEMAS.length)]);
      }
    }
  };
  visit(document.paths);
  return Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
}

export async function registerOpenApi(
  app: FastifyInstance,
  options: { publicUrl: string; version: string },
): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Upshot API',
        version: options.version,
        description:
          'Upload files, get short links, manage them. Authenticate with `Authorization: Bearer <session token>` from POST /api/auth/login, or with a personal API token in `X-API-Token`.',
      },
      servers: [{ url: options.publicUrl }],
      tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A session token from sign-in' },
          apiToken: {
            type: 'apiKey',
            in: 'header',
            name: API_TOKEN_HEADER,
            description: 'A personal API token (Settings)',
          },
        },
      },
    },
    transform(document) {
      const endpoint = document.route.config?.endpoint;
      if (!endpoint) return { schema: { hide: true }, url: document.url };
      const { withBody, withoutBody } = responsesOf(endpoint);
      const out = jsonSchemaTransform({
        ...document,
        schema: { ...document.schema, operationId: NAMES.get(endpoint), response: withBody },
      });
      const schema = out.schema as Record<string, unknown>;
      schema.response = { ...(schema.response as object), ...withoutBody };
      if (endpoint.form) {
        schema.consumes = ['multipart/form-data'];
        schema.body = z.toJSONSchema(endpoint.form, { io: 'input', unrepresentable: 'any' });
      }
      return out;
    },
    transformObject(document) {
      const out = jsonSchemaTransformObject(document) as Document;
      for (const item of Object.values(out.paths ?? {})) {
        if (item.head && item.get) item.head = headOf(item.get);
      }
      return { ...out, components: { ...out.components, schemas: usedSchemas(out) } };
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: DOCS_PREFIX });
}
