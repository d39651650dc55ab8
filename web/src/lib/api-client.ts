// The one HTTP client of the web app: JSON in and out, bearer token from localStorage,
// and a non-OK response rejects with the server's parsed error body ({ error, message }).
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

async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (response.ok) return text;
    // A proxy or crash page instead of our JSON: keep the error shape the UI expects.
    return { error: 'http_error', message: `Request failed with status ${response.status}` };
  }
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
  const data = await parseBody(response);
  if (!response.ok) throw data ?? { error: 'http_error', message: response.statusText };
  return data as T;
}

export const apiClient = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
};
