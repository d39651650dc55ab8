import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '../test/fetch-mock.ts';
import { makeUpload, makeUser } from '../test/fixtures.ts';
import { mockXhr } from '../test/xhr-mock.ts';
import {
  api,
  ApiError,
  filenameFromDisposition,
  getApiErrorMessage,
  onUnauthorized,
} from './api-client.ts';

const pathOf = (request: Request) => new URL(request.url).pathname;

describe('api.call', () => {
  it('builds method and path from the route table, with the bearer token and a JSON body', async () => {
    localStorage.setItem('auth_token', 'tok-123');
    const { requests } = mockFetch({
      'PATCH /api/uploads/up%201': () => jsonResponse(200, makeUpload({ id: 'up 1' })),
    });

    const upload = await api.call('updateUpload', {
      params: { id: 'up 1' },
      body: { vanityUrl: 'my-link' },
    });

    expect(upload.id).toBe('up 1');
    const request = requests[0]!;
    expect(request.method).toBe('PATCH');
    expect(pathOf(request)).toBe('/api/uploads/up%201');
    expect(request.headers.get('Authorization')).toBe('Bearer tok-123');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(await request.json()).toEqual({ vanityUrl: 'my-link' });
  });

  it('writes the query string, leaving out empty values', async () => {
    const { requests } = mockFetch({
      'GET /api/uploads': () => jsonResponse(200, { uploads: [], total: 0, page: 2, limit: 20 }),
    });
    await api.call('listUploads', {
      query: { search: '', type: 'images', sort: 'oldest', page: 2, limit: 20 },
    });
    expect(new URL(requests[0]!.url).search).toBe('?type=images&sort=oldest&page=2&limit=20');
  });

  it('sends no Authorization header without a token, and no content type without a body', async () => {
    const { requests } = mockFetch({ 'GET /api/auth/me': () => jsonResponse(200, makeUser()) });
    await api.call('me');
    expect(requests[0]!.headers.has('Authorization')).toBe(false);
    expect(requests[0]!.headers.has('Content-Type')).toBe(false);
  });

  it('returns undefined for a 204', async () => {
    mockFetch({ 'DELETE /api/uploads/u1': () => jsonResponse(204) });
    await expect(api.call('deleteUpload', { params: { id: 'u1' } })).resolves.toBeUndefined();
  });

  it('rejects with an ApiError carrying status, code and the server message', async () => {
    mockFetch({
      'POST /api/auth/login': () =>
        jsonResponse(429, { error: 'rate_limited', message: 'Too many attempts' }),
    });
    const error = await api
      .call('login', { body: { email: 'a@b.c', password: 'x' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: 'Too many attempts',
    });
    expect(getApiErrorMessage(error)).toBe('Too many attempts');
  });

  it('makes an ApiError of an answer that is not our JSON, without inventing a server message', async () => {
    mockFetch({
      'GET /api/auth/me': () => new Response('<html>Bad gateway</html>', { status: 502 }),
    });
    const error = await api.call('me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 502,
      code: 'http_error',
      message: 'Request failed with status 502',
    });
    expect(getApiErrorMessage(error)).toBeUndefined();
  });

  it('lets a network failure through as it is: not an ApiError', async () => {
    mockFetch({ 'GET /api/auth/me': () => Promise.reject(new TypeError('Failed to fetch')) });
    const error = await api.call('me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(getApiErrorMessage(error)).toBeUndefined();
  });

  it('is typed from the route table', () => {
    // Compile-time checks only: nothing is sent.
    const typeChecks = () => {
      // @ts-expect-error updateUpload needs its id and body
      void api.call('updateUpload');
      // @ts-expect-error not an endpoint
      void api.call('noSuchEndpoint');
      // @ts-expect-error the query of listUploads has no such sort
      void api.call('listUploads', { query: { sort: 'sideways' } });
      // @ts-expect-error a multipart endpoint goes through api.upload
      void api.call('uploadFile');
      void api.call('listUploads').then((list) => list.uploads.map((u) => u.thumbnailUrl));
    };
    expect(typeChecks).toBeTypeOf('function');
  });
});

describe('a 401 with the current token', () => {
  it('clears the token and tells the listeners, from any endpoint', async () => {
    localStorage.setItem('auth_token', 'tok');
    mockFetch({
      'GET /api/uploads': () => jsonResponse(401, { error: 'unauthorized', message: 'Expired' }),
    });
    const listener = vi.fn();
    const stop = onUnauthorized(listener);

    await expect(api.call('listUploads')).rejects.toMatchObject({ status: 401 });

    expect(localStorage.getItem('auth_token')).toBeNull();
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
  });

  it('is ignored when sent without a token (a failed sign-in) or with an older one', async () => {
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    mockFetch({
      'POST /api/auth/login': () => jsonResponse(401, { error: 'unauthorized', message: 'No' }),
      'GET /api/uploads': () => {
        localStorage.setItem('auth_token', 'newer'); // signed in again meanwhile
        return jsonResponse(401, { error: 'unauthorized', message: 'Expired' });
      },
    });
    await expect(
      api.call('login', { body: { email: 'a@b.c', password: 'x' } }),
    ).rejects.toBeInstanceOf(ApiError);

    localStorage.setItem('auth_token', 'older');
    await expect(api.call('listUploads')).rejects.toBeInstanceOf(ApiError);

    expect(listener).not.toHaveBeenCalled();
    expect(localStorage.getItem('auth_token')).toBe('newer');
    stop();
  });

  it('from an upload (XMLHttpRequest) signs out too', async () => {
    localStorage.setItem('auth_token', 'tok');
    mockXhr((request) => request.respond(401, { error: 'unauthorized', message: 'Expired' }));
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    await expect(
      api.upload('uploadFile', { fields: { file: new File(['x'], 'a.txt') } }),
    ).rejects.toMatchObject({ status: 401 });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('auth_token')).toBeNull();
    stop();
  });
});

describe('api.upload', () => {
  it('posts the fields in order with the token, reports progress and resolves with the JSON body', async () => {
    localStorage.setItem('auth_token', 'tok-9');
    const upload = makeUpload();
    const { requests } = mockXhr((request) => {
      request.progress(3, 10);
      request.respond(201, { url: upload.url, message: 'ok', upload });
    });
    const file = new File(['abc'], 'a.txt');
    const progress: [number, number][] = [];

    const result = await api.upload('uploadFile', {
      fields: { isPublic: 'false', file },
      onProgress: (loaded, total) => progress.push([loaded, total]),
    });

    expect(result.upload).toEqual(upload);
    expect(progress).toEqual([[3, 10]]);
    const request = requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/api/upload');
    expect(request.headers.authorization).toBe('Bearer tok-9');
    expect([...request.body.keys()]).toEqual(['isPublic', 'file']);
    expect((request.body.get('file') as File).name).toBe('a.txt');
  });

  it('rejects with an ApiError for a refusal, a TypeError when the connection drops', async () => {
    mockXhr((request) => request.respond(413, { error: 'payload_too_large', message: 'Too big' }));
    const refused = await api
      .upload('uploadFile', { fields: { file: new File(['x'], 'a') } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 413, code: 'payload_too_large', message: 'Too big' });

    mockXhr((request) => request.fail());
    const dropped = await api
      .upload('uploadFile', { fields: { file: new File(['x'], 'a') } })
      .catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(TypeError);
  });

  it('aborts with an AbortError when its signal fires', async () => {
    const { requests } = mockXhr();
    const controller = new AbortController();
    const pending = api.upload('chunkedChunk', {
      fields: { uploadId: 'u1', chunkIndex: '0', chunk: new Blob(['x']) },
      signal: controller.signal,
    });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests[0]!.settled).toBe(true);
    expect(requests[0]!.path).toBe('/api/chunked-upload/chunk');
  });
});

describe('api.download', () => {
  it('fetches the file with the token and reads its name from Content-Disposition', async () => {
    localStorage.setItem('auth_token', 'tok-9');
    const { requests } = mockFetch({
      'GET /api/users/u%201/bash-script': () =>
        new Response('#!/bin/bash\n', {
          headers: {
            'Content-Type': 'text/x-shellscript',
            'Content-Disposition': 'attachment; filename="upshot-alice.sh"',
          },
        }),
    });
    const file = await api.download('userBashScript', { params: { id: 'u 1' } });
    expect(file.filename).toBe('upshot-alice.sh');
    expect(await file.blob.text()).toBe('#!/bin/bash\n');
    expect(requests[0]!.headers.get('Authorization')).toBe('Bearer tok-9');
  });

  it('gives no name when the server sends none', async () => {
    mockFetch({ 'GET /api/upload/sharex-config': () => new Response('{}') });
    await expect(api.download('sharexConfig')).resolves.toMatchObject({ filename: null });
  });

  it('rejects a refusal with an ApiError, and a 401 ends the session', async () => {
    localStorage.setItem('auth_token', 'tok-9');
    const listener = vi.fn();
    const unsubscribe = onUnauthorized(listener);
    mockFetch({
      'GET /api/upload/sharex-config': () =>
        jsonResponse(401, { error: 'unauthorized', message: 'Sign in first' }),
    });
    const error = await api.download('sharexConfig').catch((e: unknown) => e);
    unsubscribe();
    expect(error).toMatchObject({ status: 401, message: 'Sign in first' });
    expect(error).toBeInstanceOf(ApiError);
    expect(listener).toHaveBeenCalledOnce();
  });

  it('is only for the files a signed-in user downloads', () => {
    const typeChecks = () => {
      // @ts-expect-error a JSON endpoint goes through api.call
      void api.download('listUploads');
      // @ts-expect-error the public links are not fetched with the session
      void api.download('file', { params: { slug: 'x' } });
      // @ts-expect-error the script needs the user's id
      void api.download('userBashScript');
    };
    expect(typeChecks).toBeTypeOf('function');
  });
});

describe('filenameFromDisposition', () => {
  it.each([
    ['attachment; filename="upshot-alice.sxcu"', 'upshot-alice.sxcu'],
    ['attachment; filename=upshot-bob.sh', 'upshot-bob.sh'],
    ['attachment; filename="a \\"quoted\\" name.ps1"', 'a "quoted" name.ps1'],
    [
      `attachment; filename="upshot-_.sh"; filename*=UTF-8''upshot-%C3%A9lodie.sh`,
      'upshot-élodie.sh',
    ],
    [`attachment; filename*=UTF-8''bad%E0%A4%A.sh; filename="fallback.sh"`, 'fallback.sh'],
  ])('reads %j', (header, name) => {
    expect(filenameFromDisposition(header)).toBe(name);
  });

  it('is null without a name', () => {
    expect(filenameFromDisposition(null)).toBeNull();
    expect(filenameFromDisposition('attachment')).toBeNull();
  });
});
