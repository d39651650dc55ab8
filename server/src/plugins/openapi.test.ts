/**
 * The API reference generated from the route table: GET /api/openapi.json describes every
 * entry (paths, parameters, bodies, answers, who may call it), and /api/docs serves a page
 * whose assets load.
 */
import {
  API,
  API_TAGS,
  API_TOKEN_HEADER,
  type Endpoint,
  type EndpointName,
} from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { DOCS_PREFIX } from './openapi.ts';

type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
};
type Media = Record<string, { schema?: Schema }>;
type Operation = {
  operationId?: string;
  tags?: string[];
  parameters?: { in: string; name: string; required?: boolean; schema?: Schema }[];
  requestBody?: { required?: boolean; content: Media };
  responses: Record<string, { description: string; content?: Media }>;
  security?: Record<string, string[]>[];
};
type Document = {
  openapi: string;
  info: { title: string; version: string };
  servers?: { url: string }[];
  security?: unknown;
  tags?: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas?: Record<string, Schema>;
    securitySchemes?: Record<string, Record<string, string>>;
  };
};

const entries = Object.entries(API) as [EndpointName, Endpoint][];
const jsonEntries = entries.filter(([, e]) => !e.produces);

let ctx: TestContext;
let doc: Document;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://up.example.com' });
  const res = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.json();
});
afterAll(() => ctx.close());

/** Fastify's `:id` as OpenAPI writes it: `{id}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');
const operation = (e: Endpoint): Operation | undefined =>
  doc.paths[openApiPath(e.path)]?.[e.method.toLowerCase()];

/** A schema with its `$ref` to the components followed. */
function resolve(schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return resolve(doc.components.schemas?.[name]);
}

/** The keys of a zod object (and which of them are required), as the document should list them. */
function keysOf(schema: z.ZodType): { all: string[]; required: string[] } {
  const shape = (schema as z.ZodObject).shape;
  const all = Object.keys(shape).sort();
  const required = all.filter((k) => !(shape[k] as z.ZodType).safeParse(undefined).success);
  return { all, required };
}

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document about this server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Upshot API', version: ctx.config.version });
    expect(doc.servers).toEqual([{ url: 'https://up.example.com' }]);
  });

  it('has every entry of the table, with its path and method, and nothing else', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const expected = entries.flatMap(([, e]) => {
      const path = openApiPath(e.path);
      // A link answers HEAD too, and says so.
      return e.produces && e.method === 'GET'
        ? [`GET ${path}`, `HEAD ${path}`]
        : [`${e.method} ${path}`];
    });
    expect(documented.sort()).toEqual(expected.sort());
    expect(Object.keys(doc.paths).some((p) => p.startsWith(DOCS_PREFIX))).toBe(false);
  });

  it.each(entries.filter(([, e]) => e.params || e.query))(
    '%s: path parameters and query values',
    (_, e) => {
      const params = operation(e)?.parameters ?? [];
      if (e.params) {
        const path = params.filter((p) => p.in === 'path');
        expect(path.map((p) => p.name).sort()).toEqual(keysOf(e.params).all);
        expect(path.every((p) => p.required === true)).toBe(true);
        // Every {name} in the path is a declared parameter.
        const inPath = [...openApiPath(e.path).matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        expect(inPath.sort()).toEqual(keysOf(e.params).all);
      }
      if (e.query) {
        const query = params.filter((p) => p.in === 'query');
        expect(query.map((p) => p.name).sort()).toEqual(keysOf(e.query).all);
      }
    },
  );

  it.each(jsonEntries.filter(([, e]) => e.body))('%s: its JSON request body', (_, e) => {
    const body = operation(e)?.requestBody;
    expect(body?.required).toBe(true);
    expect(Object.keys(body?.content ?? {})).toEqual(['application/json']);
    const schema = resolve(body?.content['application/json']?.schema);
    expect(schema?.type).toBe('object');
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(keysOf(e.body!).all);
    expect((schema?.required ?? []).sort()).toEqual(keysOf(e.body!).required);
  });

  it.each(entries.filter(([, e]) => e.form))('%s: a multipart/form-data request body', (_, e) => {
    const body = operation(e)?.requestBody;
    expect(Object.keys(body?.content ?? {})).toEqual(['multipart/form-data']);
    const schema = resolve(body?.content['multipart/form-data']?.schema);
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(keysOf(e.form!).all);
    const binary = Object.entries(schema?.properties ?? {}).filter(
      ([, p]) => p.type === 'string' && p.format === 'binary',
    );
    expect(binary.map(([name]) => name)).toEqual([e.path.includes('chunk') ? 'chunk' : 'file']);
  });

  it('the two upload endpoints are the multipart ones', () => {
    const multipart = entries
      .filter(([, e]) => operation(e)?.requestBody?.content['multipart/form-data'])
      .map(([name]) => name);
    expect(multipart.sort()).toEqual(['chunkedChunk', 'uploadFile']);
  });

  it.each(jsonEntries)('%s: its answers and their JSON schemas', (_, e) => {
    const responses = operation(e)?.responses ?? {};
    for (const [status, schema] of Object.entries(e.responses)) {
      const response = responses[status];
      expect(response, `${status} is documented`).toBeDefined();
      if (schema === null) {
        // 204: no body to describe.
        expect(response?.content, status).toBeUndefined();
        continue;
      }
      const documented = resolve(response?.content?.['application/json']?.schema);
      expect(documented, status).toBeDefined();
      if (schema instanceof z.ZodObject) {
        expect(Object.keys(documented?.properties ?? {}).sort(), status).toEqual(
          keysOf(schema).all,
        );
      }
    }
    // Errors keep one shape everywhere.
    const error = resolve(responses['4XX']?.content?.['application/json']?.schema);
    expect(Object.keys(error?.properties ?? {}).sort()).toEqual(['error', 'message']);
  });

  it.each(entries.filter(([, e]) => e.produces))(
    '%s: the content types of its file answers',
    (_, e) => {
      const responses = operation(e)?.responses ?? {};
      for (const status of Object.keys(e.responses)) {
        expect(responses[status], `${status} is documented`).toBeDefined();
        expect(Object.keys(responses[status]?.content ?? {}).sort(), status).toEqual(
          [...e.produces!].sort(),
        );
      }
    },
  );

  it.each(entries)('%s: named after its entry, its errors in the one error shape', (name, e) => {
    const op = operation(e);
    expect(op?.operationId).toBe(name);
    for (const range of ['4XX', '5XX']) {
      const error = resolve(op?.responses[range]?.content?.['application/json']?.schema);
      expect(Object.keys(error?.properties ?? {}).sort(), range).toEqual(['error', 'message']);
    }
    // The answers that are not a success nor a JSON error: a 304, an error page.
    for (const [status, other] of Object.entries(e.otherResponses ?? {})) {
      expect(op?.responses[status]?.description, status).toBe(other?.description);
      expect(Object.keys(op?.responses[status]?.content ?? {}), status).toEqual(
        other?.produces ?? [],
      );
    }
  });

  it.each(entries.filter(([, e]) => e.produces && e.method === 'GET'))(
    '%s: its HEAD, named apart, answers what the GET does without a body',
    (name, e) => {
      const get = operation(e)!;
      const head = doc.paths[openApiPath(e.path)]?.head;
      expect(head?.operationId).toBe(`${name}Head`);
      expect(Object.keys(head?.responses ?? {}).sort()).toEqual(Object.keys(get.responses).sort());
      expect(Object.values(head?.responses ?? {}).every((r) => !r.content)).toBe(true);
      expect(head?.security).toEqual(get.security);
    },
  );

  it('declares the tags with what each covers, and only the ones in use', () => {
    expect(doc.tags).toEqual(
      Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
    );
    const used = new Set(entries.flatMap(([, e]) => operation(e)?.tags ?? []));
    expect([...used].sort()).toEqual(Object.keys(API_TAGS).sort());
  });

  it('declares the bearer and apiToken (x-api-token header) security schemes', () => {
    expect(doc.components.securitySchemes?.bearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(doc.components.securitySchemes?.apiToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: API_TOKEN_HEADER,
    });
    expect(API_TOKEN_HEADER).toBe('x-api-token');
  });

  it('puts security on the operations that need a caller, and only on them', () => {
    // Nothing document-wide, which would cover the public operations too.
    expect(doc.security).toBeUndefined();
    for (const [name, e] of entries) {
      const security = operation(e)?.security;
      if (e.access === 'public') expect(security, name).toEqual([]);
      else expect(security, name).toEqual([{ bearer: [] }, { apiToken: [] }]);
    }
  });
});

describe('GET /api/docs', () => {
  /** Follows redirects (at most five), as a browser would. */
  async function browse(url: string) {
    let at = new URL(url, 'http://localhost');
    for (let hops = 0; hops < 5; hops += 1) {
      const res = await ctx.app.inject({ method: 'GET', url: at.pathname + at.search });
      if (res.statusCode < 300 || res.statusCode >= 400) return { res, url: at };
      at = new URL(String(res.headers.location), at);
    }
    throw new Error(`too many redirects from ${url}`);
  }

  it('answers an HTML page whose scripts, styles and icons load', async () => {
    const { res, url } = await browse(DOCS_PREFIX);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('id="swagger-ui"');

    const refs = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const ref of refs) {
      const asset = await browse(new URL(ref, url).pathname);
      expect(asset.res.statusCode, ref).toBe(200);
      expect(asset.res.rawPayload.length, ref).toBeGreaterThan(0);
    }
    // The page's own CSP (script-src 'self') would block an inline script.
    const scripts = [...res.body.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every((attributes) => /\bsrc=/.test(attributes))).toBe(true);
  });

  it('the page loads the same document as /api/openapi.json', async () => {
    // swagger-initializer.js asks for ./json next to the page.
    const { url } = await browse(DOCS_PREFIX);
    const page = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
    const { res } = await browse(`${page}json`);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json<Document>().paths).sort()).toEqual(Object.keys(doc.paths).sort());
  });
});
