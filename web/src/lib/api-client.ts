// The one HTTP client of the web app: JSON in and out, bearer token from localStorage,
// and a non-OK response rejects with the server's parsed error body ({ error, message }),
// which also carries the HTTP status (not enumerable, so the body still compares as sent).
import { API_BASE, AUTH_TOKEN_STORAGE_KEY } from '@upshot/contract';

export function getApiBase(): string {
  const base = import.meta.env.VITE_API_BASE || API_BASE;
  return base.replace(/\/+$/, '');
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

/** The server's `message` when `error` is an error body; undefined for anything else (network failures included). */
export function getApiErrorMessage(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || error instanceof Error) return undefined;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && message.length > 0 ? message : undefined;
}

function parseText(status: number, text: string): unknown {
  if (status === 204 || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (status >= 200 && status < 300) return text;
    // A proxy or crash page instead of our JSON: keep the error shape the UI expects.
    return { error: 'http_error', message: `Request failed with status ${status}` };
  }
}

function toApiError(data: unknown, status: number, statusText: string): object {
  const body =
    typeof data === 'object' && data !== null
      ? data
      : { error: 'http_error', message: statusText || `Request failed with status ${status}` };
  Object.defineProperty(body, 'status', { value: status, enumerable: false });
  return body;
}

/** The HTTP status of an error thrown by the api client; undefined for network failures. */
export function getApiErrorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || error instanceof Error) return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers = new Headers({ Accept: 'application/json' });
  const token = getStoredToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body; // the browser sets the multipart boundary itself
  } else if (body !== undefined) {
    // Only with a body: Fastify rejects an empty body sent as application/json.
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }

  const response = await fetch(`${getApiBase()}${path}`, { method, headers, body: payload });
  const data = parseText(response.status, await response.text());
  if (!response.ok) throw toApiError(data, response.status, response.statusText);
  return data as T;
}

export type UploadOptions = {
  /** Bytes of the request body sent so far, out of its total (multipart framing included). */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
};

/**
 * POSTs a multipart body with XMLHttpRequest, the one browser API that reports upload
 * progress. Settles like the JSON calls: the parsed body, or the error body; a network
 * failure rejects with a TypeError like fetch, an abort with an AbortError.
 */
function upload<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const { onProgress, signal } = options;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was aborted', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbortSignal = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', onAbortSignal);

    xhr.open('POST', `${getApiBase()}${path}`);
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getStoredToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    if (onProgress) {
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      };
    }
    xhr.onload = () => {
      settle();
      const data = parseText(xhr.status, xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as T);
      else reject(toApiError(data, xhr.status, xhr.statusText));
    };
    xhr.onerror = () => {
      settle();
      reject(new TypeError('Network request failed'));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      settle();
      reject(new DOMException('The upload was aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbortSignal);
    xhr.send(form);
  });
}

export const apiClient = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
  upload,
};
