/**
 * The API reference, generated from the route table: GET /api/openapi.json (OpenAPI 3.1) and
 * an interactive reference at /api/docs. Only routes registered from the table appear.
 */
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { API_TOKEN_HEADER } from '@upshot/contract';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const DOCS_PREFIX = '/api/docs';

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
      const out = jsonSchemaTransform(document);
      const schema = out.schema as Record<string, unknown>;
      if (endpoint.form) {
        schema.consumes = ['multipart/form-data'];
        schema.body = z.toJSONSchema(endpoint.form, { io: 'input', unrepresentable: 'any' });
      }
      // Answers without a JSON body, which the route schema leaves out: nothing at all (204),
      // or the bytes of a file in one of the `produces` types.
      const response = { ...(schema.response as Record<string, unknown> | undefined) };
      for (const [status, body] of Object.entries(endpoint.responses)) {
        if (body !== null) continue;
        response[status] = endpoint.produces
          ? {
              description: 'The bytes',
              content: Object.fromEntries(
                endpoint.produces.map((type) => [
                  type,
                  { schema: { type: 'string', format: 'binary' } },
                ]),
              ),
            }
          : { type: 'null', description: 'No content' };
      }
      schema.response = response;
      return out;
    },
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: DOCS_PREFIX });
}
