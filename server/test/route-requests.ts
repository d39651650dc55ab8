/**
 * Requests built from route-table entries, and the checks API tests make on their answers:
 * a clean refusal (a 4xx with `{ error, message }`), a body with exactly its schema's keys.
 */
import { ErrorBody, routePath, type Endpoint } from '@upshot/contract';
import Fastify, { type InjectOptions, type LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { z } from 'zod';
import { registerAuth, type Authenticator } from '../src/plugins/auth.ts';
import { registerErrorHandler } from '../src/plugins/errors.ts';
import { registerRouteTable, type RouteDef } from '../src/plugins/route-table.ts';
import { CONTROL_SAMPLES, formFields, setAt, stringPaths, withControl } from './bad-input.ts';
import { multipart } from './uploads.ts';

/** What one call of an entry sends. */
export type Input = {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as it is, labelled JSON. */
  body?: unknown;
  /** Text fields of a multipart form; a small file part follows them. */
  form?: Record<string, string>;
};

export function requestFor(
  e: Endpoint,
  input: Input,
  headers: Record<string, string>,
): InjectOptions {
  let url = routePath(e.path, input.params ?? {});
  if (input.query) url += `?${new URLSearchParams(input.query).toString()}`;
  if (e.form) {
    const body = multipart(input.form ?? {}, {
      field: formFields(e.form).file,
      filename: 'a.txt',
      contentType: 'text/plain',
      data: Buffer.from('hello'),
    });
    return {
      method: e.method,
      url,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    };
  }
  if (input.body === undefined) return { method: e.method, url, headers };
  return {
    method: e.method,
    url,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: typeof input.body === 'string' ? input.body : JSON.stringify(input.body),
  };
}

/**
 * Why an answer is not a clean refusal (null when it is): a 4xx whose body is exactly
 * `{ error, message }`. `page` is a body also accepted with a 404: the web app's not-found page,
 * which a link that does not exist answers (web-app.ts).
 */
export function refusalProblem(res: LightMyRequestResponse, page?: string): string | null {
  const what = `${res.statusCode} ${res.body.slice(0, 160)}`;
  if (res.statusCode < 400 || res.statusCode >= 500) return what;
  if (page !== undefined && res.statusCode === 404 && res.body === page) return null;
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return `not JSON: ${what}`;
  }
  const keys = Object.keys(body as object).sort();
  if (!ErrorBody.safeParse(body).success || keys.join() !== 'error,message') {
    return `not { error, message }: ${what}`;
  }
  return null;
}

/** The value has exactly the schema's keys, at every level of objects and arrays. */
export function expectExactShape(value: unknown, schema: z.ZodType, at = 'body'): void {
  let s: z.ZodType = schema;
  while (s instanceof z.ZodNullable || s instanceof z.ZodOptional) s = s.unwrap() as z.ZodType;
  if (value === null || value === undefined) return;
  if (s instanceof z.ZodObject) {
    expect(Object.keys(value as object).sort(), at).toEqual(Object.keys(s.shape).sort());
    for (const [key, child] of Object.entries(s.shape)) {
      expectExactShape((value as Record<string, unknown>)[key], child as z.ZodType, `${at}.${key}`);
    }
  } else if (s instanceof z.ZodArray) {
    for (const [i, item] of (value as unknown[]).entries()) {
      expectExactShape(item, s.element as z.ZodType, `${at}[${i}]`);
    }
  }
}

/**
 * A bare app with the route table and the real credential and access steps: for entries the
 * table lacks.
 */
export async function routeTableApp(auth: Authenticator, routes: RouteDef[]) {
  const app = Fastify();
  registerErrorHandler(app);
  registerAuth(app, auth);
  registerRouteTable(app, routes);
  await app.ready();
  return app;
}

/** Body fields that take several lines: line breaks are their text, not control characters. */
const MULTILINE_FIELDS = ['reason'];
const LINE_BREAKS = ['\n', '\r'];

/**
 * The input with a control character (each of CONTROL_SAMPLES, in several positions) in one of
 * its strings: every path param, query value, body string (from the schema) and form field.
 */
export function withControlCharacters(
  e: Endpoint,
  input: Input,
): { label: string; input: Input }[] {
  const out: { label: string; input: Input }[] = [];
  const add = (where: string, key: (string | number)[], value: string, tainted: Input) =>
    out.push({ label: `${where} ${key.join('.')}=${JSON.stringify(value)}`, input: tainted });
  for (const control of CONTROL_SAMPLES) {
    for (const [key, value] of Object.entries(input.params ?? {})) {
      for (const v of withControl(value, control)) {
        add('param', [key], v, { ...input, params: { ...input.params, [key]: v } });
      }
    }
    // A query value counts only when the form does not carry the same field (chunk uploads).
    for (const [key, value] of Object.entries(input.query ?? {})) {
      for (const v of withControl(value, control)) {
        add('query', [key], v, { ...input, form: {}, query: { ...input.query, [key]: v } });
      }
    }
    for (const path of e.body ? stringPaths(e.body) : []) {
      // Text typed in a textarea (an access request's reason) holds line breaks, nothing else.
      if (LINE_BREAKS.includes(control) && MULTILINE_FIELDS.includes(path.join('.'))) continue;
      const original = path.reduce<unknown>(
        (node, k) => (node as Record<string | number, unknown> | undefined)?.[k],
        input.body,
      );
      for (const v of withControl(typeof original === 'string' ? original : 'x', control)) {
        add('body', path, v, { ...input, body: setAt(input.body, path, v) });
      }
    }
    for (const key of e.form ? formFields(e.form).fields : []) {
      for (const v of withControl(input.form?.[key] ?? 'x', control)) {
        add('form', [key], v, { ...input, form: { ...input.form, [key]: v } });
      }
    }
  }
  return out;
}

/** Half a character each: a high and a low surrogate alone, and the two the wrong way round. */
const LONE_SURROGATES = ['\ud800', '\udfff', '\udc00\ud800'] as const;

/**
 * The input with a lone surrogate in one of its JSON body's strings (from the schema), alone and
 * inside a plausible value (a JSON `\u` escape carries it; a URL and a URL-encoded form are
 * decoded from UTF-8, which has none). `path` is the field as an answer names it.
 */
export function withLoneSurrogates(
  e: Endpoint,
  input: Input,
): { label: string; path: string; input: Input }[] {
  const out: { label: string; path: string; input: Input }[] = [];
  for (const path of e.body ? stringPaths(e.body) : []) {
    const original = path.reduce<unknown>(
      (node, k) => (node as Record<string | number, unknown> | undefined)?.[k],
      input.body,
    );
    const value = typeof original === 'string' && original !== '' ? original : 'x';
    for (const half of LONE_SURROGATES) {
      for (const v of [half, value.slice(0, 1) + half + value.slice(1)]) {
        out.push({
          label: `body ${path.join('.')}=${JSON.stringify(v)}`,
          path: path.join('.'),
          input: { ...input, body: setAt(input.body, path, v) },
        });
      }
    }
  }
  return out;
}
