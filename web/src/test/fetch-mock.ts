// Fakes the network boundary only: everything above fetch (api client, auth, routing) is real.
import { vi } from 'vitest';

type Handler = (
  request: Request,
  /** The values of a pattern's `:name` segments ("DELETE /api/tags/:tagId"). */
  params: Record<string, string>,
) => Response | Promise<Response>;

export function jsonResponse(status: number, body?: unknown): Response {
  if (body === undefined) return new Response(null, { status });
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** The values of `pattern`'s `:name` segments when `path` matches it, else null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const parts = pattern.split('/');
  const segments = path.split('/');
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    const segment = segments[i] ?? '';
    if (part.startsWith(':')) {
      if (segment === '') return null;
      params[part.slice(1)] = decodeURIComponent(segment);
    } else if (part !== segment) {
      return null;
    }
  }
  return params;
}

/** The handler for "METHOD /path": an exact key first, then a pattern with `:name` segments. */
function route(handlers: Record<string, Handler>, method: string, path: string) {
  const exact = handlers[`${method} ${path}`];
  if (exact) return { handler: exact, params: {} };
  for (const [key, handler] of Object.entries(handlers)) {
    const [keyMethod, pattern = ''] = key.split(' ');
    const params = keyMethod === method ? matchPath(pattern, path) : null;
    if (params) return { handler, params };
  }
  return undefined;
}

/**
 * Routes `fetch` by "METHOD /path" to handlers (a path may have `:name` segments); anything
 * else answers 404 like the server.
 */
export function mockFetch(handlers: Record<string, Handler>) {
  const requests: Request[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input), 'http://localhost'), init);
    requests.push(request);
    const found = route(handlers, request.method, new URL(request.url).pathname);
    if (!found) return jsonResponse(404, { error: 'not_found', message: 'Not found' });
    return found.handler(request, found.params);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests };
}

/** A promise resolved from outside, to hold a request in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
