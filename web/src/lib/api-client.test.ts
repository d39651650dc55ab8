import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '../test/fetch-mock.ts';
import { mockXhr } from '../test/xhr-mock.ts';
import { apiClient, getApiErrorMessage, getApiErrorStatus } from './api-client.ts';

describe('apiClient', () => {
  afterEach(() => localStorage.clear());

  it('sends the bearer token from localStorage auth_token and a JSON body', async () => {
    localStorage.setItem('auth_token', 'tok-123');
    const { requests } = mockFetch({ 'POST /api/things': () => jsonResponse(200, { id: 7 }) });

    const result = await apiClient.post<{ id: number }>('/things', { name: 'a' });

    expect(result).toEqual({ id: 7 });
    const request = requests[0]!;
    expect(new URL(request.url).pathname).toBe('/api/things');
    expect(request.headers.get('Authorization')).toBe('Bearer tok-123');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(await request.json()).toEqual({ name: 'a' });
  });

  it('sends no Authorization header without a token, and no content type without a body', async () => {
    const { requests } = mockFetch({ 'GET /api/things': () => jsonResponse(200, []) });
    await apiClient.get('/things');
    expect(requests[0]!.headers.has('Authorization')).toBe(false);
    expect(requests[0]!.headers.has('Content-Type')).toBe(false);
  });

  it('uses VITE_API_BASE instead of /api when set', async () => {
    vi.stubEnv('VITE_API_BASE', 'https://api.example.com/v1/');
    const { fetchMock } = mockFetch({});
    fetchMock.mockResolvedValue(jsonResponse(200, { ok: true }));

    await apiClient.patch('/things/1', { a: 1 });

    expect(fetchMock).toHaveBeenCalledWith(
      'https://api.example.com/v1/things/1',
      expect.objectContaining({ method: 'PATCH' }),
    );
  });

  it('throws the parsed error body on a non-OK response', async () => {
    const body = { error: 'unauthorized', message: 'Invalid credentials' };
    mockFetch({ 'POST /api/auth/login': () => jsonResponse(401, body) });
    await expect(apiClient.post('/auth/login', { email: 'a@b.c', password: 'x' })).rejects.toEqual(
      body,
    );
  });

  it('throws an error-shaped body when the error response is not JSON', async () => {
    mockFetch({ 'GET /api/boom': () => new Response('<html>Bad gateway</html>', { status: 502 }) });
    await expect(apiClient.get('/boom')).rejects.toEqual({
      error: 'http_error',
      message: 'Request failed with status 502',
    });
  });

  it('returns undefined for an empty 204 response', async () => {
    mockFetch({ 'DELETE /api/things/1': () => jsonResponse(204) });
    await expect(apiClient.delete('/things/1')).resolves.toBeUndefined();
  });
});

describe('getApiErrorMessage', () => {
  it("reads the server's message from an error body", () => {
    expect(getApiErrorMessage({ error: 'rate_limited', message: 'Slow down' })).toBe('Slow down');
  });

  it('ignores bodies without a message and thrown Errors (network failures)', () => {
    expect(getApiErrorMessage({ error: 'internal_error' })).toBeUndefined();
    expect(getApiErrorMessage({ error: 'x', message: '' })).toBeUndefined();
    expect(getApiErrorMessage(new TypeError('Failed to fetch'))).toBeUndefined();
    expect(getApiErrorMessage(undefined)).toBeUndefined();
  });
});

describe('apiClient.upload', () => {
  it('posts the form with the token, reports progress and resolves with the JSON body', async () => {
    localStorage.setItem('auth_token', 'tok-9');
    const { requests } = mockXhr((request) => {
      request.progress(3, 10);
      request.respond(201, { ok: true });
    });
    const form = new FormData();
    form.append('file', new File(['abc'], 'a.txt'));
    const progress: [number, number][] = [];

    const result = await apiClient.upload('/upload', form, {
      onProgress: (loaded, total) => progress.push([loaded, total]),
    });

    expect(result).toEqual({ ok: true });
    expect(progress).toEqual([[3, 10]]);
    expect(requests[0]!.path).toBe('/api/upload');
    expect(requests[0]!.headers.authorization).toBe('Bearer tok-9');
    expect(requests[0]!.body).toBe(form);
  });

  it('rejects with the error body and its status, a TypeError when the connection drops', async () => {
    mockXhr((request) => request.respond(413, { error: 'payload_too_large', message: 'Too big' }));
    const refused = await apiClient.upload('/upload', new FormData()).catch((e: unknown) => e);
    expect(refused).toEqual({ error: 'payload_too_large', message: 'Too big' });
    expect(getApiErrorStatus(refused)).toBe(413);

    mockXhr((request) => request.fail());
    const dropped = await apiClient.upload('/upload', new FormData()).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(TypeError);
    expect(getApiErrorStatus(dropped)).toBeUndefined();
  });

  it('aborts with an AbortError when its signal fires', async () => {
    const { requests } = mockXhr();
    const controller = new AbortController();
    const pending = apiClient.upload('/upload', new FormData(), { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests[0]!.settled).toBe(true);
  });
});

describe('getApiErrorStatus', () => {
  it('reads the status of a fetch error body without changing how the body compares', async () => {
    mockFetch({ 'GET /api/x': () => jsonResponse(409, { error: 'conflict', message: 'Taken' }) });
    const error = await apiClient.get('/x').catch((e: unknown) => e);
    expect(getApiErrorStatus(error)).toBe(409);
    expect(error).toEqual({ error: 'conflict', message: 'Taken' });
  });
});
