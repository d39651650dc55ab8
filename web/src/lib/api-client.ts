// The one HTTP client of the web app. Every call names an entry of the contract's route table,
// so no API path is written here or anywhere else in the app; requests and answers are typed
// from the same table. A non-OK answer rejects with an ApiError; a failed connection rejects
// with the browser's TypeError, an abort with an AbortError.
import type { Api, EndpointName, EndpointRequest, EndpointResponse } from '@upshot/contract';
import {
  AUTH_TOKEN_STORAGE_KEY,
  ERROR_CODES,
  ROUTES,
  routePath,
  type ErrorCode,
} from '@upshot/contract/constants';

export type ApiErrorCode = ErrorCode | 'http_error';

/** The server refused a call: its HTTP status, its stable code and its sentence for people. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** False when the answer had no message of its own and this one was made up here. */
    readonly fromServer: boolean,
  ) {
    super(message);
  }
}

export function getStoredToken(): string | null {
  return localStorage.getItem(AUTH_TOKEN_STORAGE_KEY);
}

export function storeToken(token: string): void {
  localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, token);
}

export function clearStoredToken(): void {
  localStorage.removeItem(AUTH_TOKEN_STORAGE_KEY);
}

/** The server's own message when `error` is an ApiError that carries one; undefined for anything else. */
export function getApiErrorMessage(error: unknown): string | undefined {
  return error instanceof ApiError && error.fromServer ? error.message : undefined;
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

// --- Session expiry ---------------------------------------------------------------------------

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/**
 * Called when a request sent with the current session token answers 401: the token is already
 * cleared. Returns the unsubscribe function.
 */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

function sessionRejected(sentToken: string | null) {
  // A late answer to a request made with an older token must not end the session signed in since.
  if (sentToken === null || sentToken !== getStoredToken()) return;
  clearStoredToken();
  for (const listener of [...unauthorizedListeners]) listener();
}

// --- Temporary passwords --------------------------------------------------------------------

const passwordChangeListeners = new Set<() => void>();

/**
 * Called when a call answers 403 `password_change_required`: the session's user signed in with a
 * temporary password and must choose their own first. Returns the unsubscribe function.
 */
export function onPasswordChangeRequired(listener: () => void): () => void {
  passwordChangeListeners.add(listener);
  return () => passwordChangeListeners.delete(listener);
}

function passwordChangeRequired(sentToken: string | null) {
  if (sentToken === null || sentToken !== getStoredToken()) return;
  for (const listener of [...passwordChangeListeners]) listener();
}

// --- Types from the route table -------------------------------------------------------------

/** Endpoints whose request is multipart/form-data (sent with `api.upload`). */
type FormEndpoint = {
  [N in EndpointName]: Api[N] extends { form: object } ? N : never;
}[EndpointName];

/** Endpoints a signed-in user downloads a file from (the desktop uploaders: a ShareX config and scripts). */
type DownloadEndpoint = {
  [N in EndpointName]: Api[N] extends {
    produces: readonly string[];
    access: 'user' | 'admin';
    method: 'GET';
  }
    ? N
    : never;
}[EndpointName];

/** Endpoints answered with JSON or nothing (the links serve files, not JSON). */
type JsonEndpoint = Exclude<
  {
    [N in EndpointName]: Api[N] extends { produces: readonly string[] } ? never : N;
  }[EndpointName],
  FormEndpoint
>;

export type CallOptions = { signal?: AbortSignal };
export type CallRequest<N extends EndpointName> = EndpointRequest<Api[N]> & CallOptions;
/** The request may be left out when nothing in it is required. */
type RequestArgs<N extends EndpointName> =
  Partial<CallRequest<N>> extends CallRequest<N>
    ? [request?: CallRequest<N>]
    : [request: CallRequest<N>];

export type ApiResponse<N extends EndpointName> = EndpointResponse<Api[N]>;

type FormFields<N extends FormEndpoint> = Api[N] extends { form: { shape: infer S } }
  ? { [K in keyof S]?: string | Blob }
  : never;

export type UploadRequest<N extends FormEndpoint> = Omit<CallRequest<N>, 'body'> & {
  /** The multipart fields, sent in the order written: the server reads fields before the file. */
  fields: FormFields<N>;
  /** Bytes of the request body sent so far, out of its total (multipart framing included). */
  onProgress?: (loaded: number, total: number) => void;
};

type LooseRequest = {
  params?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
  signal?: AbortSignal;
};

// --- Plumbing --------------------------------------------------------------------------------

function urlOf(name: EndpointName, request: LooseRequest = {}): string {
  const path = routePath(ROUTES[name].path, request.params);
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    query.set(key, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isErrorCode(value: unknown): value is ErrorCode {
  return (ERROR_CODES as readonly unknown[]).includes(value);
}

function toApiError(status: number, data: unknown): ApiError {
  const body = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const code = isErrorCode(body.error) ? body.error : 'http_error';
  const message = typeof body.message === 'string' ? body.message : '';
  // A proxy or crash page instead of our JSON still reads as an error of the usual shape.
  return message
    ? new ApiError(status, code, message, true)
    : new ApiError(status, code, `Request failed with status ${status}`, false);
}

function settle<T>(status: number, text: string, sentToken: string | null): T {
  const data = status === 204 ? undefined : parseBody(text);
  if (status >= 200 && status < 300) return data as T;
  if (status === 401) sessionRejected(sentToken);
  const error = toApiError(status, data);
  if (error.code === 'password_change_required') passwordChangeRequired(sentToken);
  throw error;
}

async function call<N extends JsonEndpoint>(
  name: N,
  ...[request]: RequestArgs<N>
): Promise<ApiResponse<N>> {
  const loose: LooseRequest = (request as LooseRequest | undefined) ?? {};
  const headers = new Headers({ Accept: 'application/json' });
  const token = getStoredToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let body: string | undefined;
  if (loose.body !== undefined) {
    // Only with a body: Fastify rejects an empty body sent as application/json.
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(loose.body);
  }
  const response = await fetch(urlOf(name, loose), {
    method: ROUTES[name].method,
    headers,
    body,
    signal: loose.signal,
  });
  return settle<ApiResponse<N>>(response.status, await response.text(), token);
}

/** A downloaded file: its bytes and the name the server gave it (Content-Disposition). */
export type DownloadedFile = { blob: Blob; filename: string | null };

/** The file name of a Content-Disposition header: `filename*` (RFC 5987) first, then `filename`. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed escape: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  return name || null;
}

/**
 * Fetches a file an endpoint serves with the session's token (a plain link could not send it),
 * for the caller to save. Settles like `call` on a refusal.
 */
async function download<N extends DownloadEndpoint>(
  name: N,
  ...[request]: RequestArgs<N>
): Promise<DownloadedFile> {
  const loose: LooseRequest = (request as LooseRequest | undefined) ?? {};
  const headers = new Headers();
  const token = getStoredToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await fetch(urlOf(name, loose), {
    method: ROUTES[name].method,
    headers,
    signal: loose.signal,
  });
  if (!response.ok) return settle<never>(response.status, await response.text(), token);
  return {
    blob: await response.blob(),
    filename: filenameFromDisposition(response.headers.get('Content-Disposition')),
  };
}

function abortError() {
  return new DOMException('The request was aborted', 'AbortError');
}

/**
 * Sends a multipart body with XMLHttpRequest, the one browser API that reports upload progress.
 * Settles like `call`: the parsed answer, an ApiError, a TypeError when the connection drops,
 * an AbortError when the signal fires.
 */
function upload<N extends FormEndpoint>(
  name: N,
  request: UploadRequest<N>,
): Promise<ApiResponse<N>> {
  const { fields, onProgress, signal } = request;
  return new Promise<ApiResponse<N>>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const form = new FormData();
    for (const [key, value] of Object.entries(
      fields as Record<string, string | Blob | undefined>,
    )) {
      if (value !== undefined) form.append(key, value);
    }
    const xhr = new XMLHttpRequest();
    const onAbortSignal = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbortSignal);
    const token = getStoredToken();

    xhr.open(ROUTES[name].method, urlOf(name, request as LooseRequest));
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    if (onProgress) {
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      };
    }
    xhr.onload = () => {
      done();
      try {
        resolve(settle<ApiResponse<N>>(xhr.status, xhr.responseText, token));
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => {
      done();
      reject(new TypeError('Network request failed'));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbortSignal);
    xhr.send(form);
  });
}

export const api = { call, upload, download };
