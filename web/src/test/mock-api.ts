// The web tests' API: each test says what the endpoints it needs answer, by their names in the
// contract's route table (so a method or path cannot be mistyped) and with the contract's types
// (so an answer has the shape the server gives). Nothing here keeps state or knows a server rule:
// the server's own suite tests those; a test here checks how the app shows an answer, and which
// requests it sent.
import type {
  Api,
  EndpointName,
  EndpointRequest,
  EndpointResponse,
  ErrorBody,
  ErrorCode,
  User,
} from '@upshot/contract';
import { AUTH_TOKEN_STORAGE_KEY, ROUTES } from '@upshot/contract/constants';
import { jsonResponse, matchPath, mockFetch } from './fetch-mock.ts';
import { makePreferences, makeServerConfig, makeUser } from './fixtures.ts';

/** The statuses an endpoint answers with on success (200, 201, 204...). */
type Success<N extends EndpointName> = Extract<keyof Api[N]['responses'], number>;

/** What an endpoint answers on success. */
export type Body<N extends EndpointName> = EndpointResponse<Api[N]>;

/** What the app sent as the JSON body of a call to an endpoint. */
export type SentBody<N extends EndpointName> =
  EndpointRequest<Api[N]> extends { body: infer B } ? B : undefined;

type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 429 | 500 | 502 | 503;

/** An answer with a status of its own: a success other than 200, or a refusal. */
export class Reply<S extends number, B> {
  constructor(
    readonly status: S,
    readonly body: B,
  ) {}
}

/** An answer with its status: `reply(201, created)`. */
export function reply<S extends number, B>(status: S, body: B): Reply<S, B> {
  return new Reply(status, body);
}

/** 204 No Content. */
export function noContent(): Reply<204, undefined> {
  return new Reply(204, undefined);
}

const CODES: Partial<Record<ErrorStatus, ErrorCode>> = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  429: 'rate_limited',
};

/** The server's refusal: its status, its sentence for people and its stable code. */
export function refuse(
  status: ErrorStatus,
  message: string,
  code: ErrorCode = CODES[status] ?? 'internal_error',
): Reply<ErrorStatus, ErrorBody> {
  return new Reply(status, { error: code, message });
}

/** A server that broke: 500 with a message the app does not show. */
export const serverError = () => refuse(500, 'boom');

/** A file an endpoint serves, with the name it gives it. */
export function file(name: string, type: string, text: string): Response {
  return new Response(text, {
    status: 200,
    headers: { 'Content-Type': type, 'Content-Disposition': `attachment; filename="${name}"` },
  });
}

/**
 * One answer: the body itself for a 200, a Reply for another status, or a whole Response (a
 * file, a proxy's HTML page).
 */
export type Answer<N extends EndpointName> =
  | (200 extends Success<N> ? Body<N> : never)
  | Reply<Success<N>, Body<N>>
  | Reply<ErrorStatus, ErrorBody>
  | Response;

/** A request the app made, as the answering function sees it. */
export type Call<N extends EndpointName> = {
  params: Record<string, string>;
  query: URLSearchParams;
  body: SentBody<N>;
  request: Request;
};

export type Handler<N extends EndpointName> =
  Answer<N> | ((call: Call<N>) => Answer<N> | Promise<Answer<N>>);

export type Answers = { [N in EndpointName]?: Handler<N> };

function toResponse(answer: unknown): Response {
  // A Response is read once: each call gets a copy, so a fixed answer can be given again.
  if (answer instanceof Response) return answer.clone();
  if (answer instanceof Reply) return jsonResponse(answer.status, answer.body);
  return jsonResponse(200, answer);
}

async function sentBody(request: Request): Promise<unknown> {
  if (!request.headers.get('Content-Type')?.includes('application/json')) return undefined;
  return request.clone().json();
}

/**
 * Answers `fetch` as `answers` say; an endpoint not named answers 404 as an unknown path would.
 * Returns what was sent, to assert on.
 */
export function mockApi(answers: Answers) {
  const handlers: Parameters<typeof mockFetch>[0] = {};
  for (const [name, handler] of Object.entries(answers) as [EndpointName, Handler<never>][]) {
    const { method, path } = ROUTES[name];
    handlers[`${method} ${path}`] = async (request, params) => {
      if (typeof handler !== 'function') return toResponse(handler);
      const call = {
        params,
        query: new URL(request.url).searchParams,
        body: (await sentBody(request)) as never,
        request,
      };
      return toResponse(await handler(call));
    };
  }
  const network = mockFetch(handlers);

  /** The requests the app made to the endpoint, in order. */
  const sent = (name: EndpointName) =>
    network.requests.filter(
      (request) =>
        request.method === ROUTES[name].method &&
        matchPath(ROUTES[name].path, new URL(request.url).pathname) !== null,
    );

  return {
    ...network,
    sent,
    /** The JSON bodies the app sent to the endpoint, in order. */
    bodies: <N extends EndpointName>(name: N) =>
      Promise.all(sent(name).map((request) => sentBody(request) as Promise<SentBody<N>>)),
    /** The query strings of the calls to the endpoint, as objects. */
    queries: (name: EndpointName) =>
      sent(name).map((request) => Object.fromEntries(new URL(request.url).searchParams)),
    /** Every call that could change something ("METHOD /path"), in order. */
    writes: () =>
      network.requests
        .filter((request) => request.method !== 'GET')
        .map((request) => `${request.method} ${new URL(request.url).pathname}`),
  };
}

/**
 * Stores a session token and returns the answers every signed-in screen needs: who `me` is, the
 * server's config, the preferences, and signing out.
 */
export function signIn(me: User = makeUser()) {
  localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, 'tok');
  return {
    me,
    config: makeServerConfig(),
    getPreferences: { preferences: makePreferences() },
    logout: noContent(),
  } satisfies Answers;
}
