// Fakes the network boundary only: everything above fetch (api client, auth, routing) is real.
import { vi } from 'vitest';

type Handler = (request: Request) => Response | Promise<Response>;

export function jsonResponse(status: number, body?: unknown): Response {
  if (body === undefined) return new Response(null, { status });
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** Routes `fetch` by "METHOD /path" to handlers; anything else answers 404 like the server. */
export function mockFetch(handlers: Record<string, Handler>) {
  const requests: Request[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input), 'http://localhost'), init);
    requests.push(request);
    const handler = handlers[`${request.method} ${new URL(request.url).pathname}`];
    if (!handler) return jsonResponse(404, { error: 'not_found', message: 'Not found' });
    return handler(request);
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
