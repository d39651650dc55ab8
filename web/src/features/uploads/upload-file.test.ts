import type { ChunkStatusResponse } from '@upshot/contract';
import { CHUNK_SIZE } from '@upshot/contract/constants';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, refuse, reply, type Answer } from '../../test/mock-api.ts';
import { makeUpload, makeUploadResponse } from '../../test/fixtures.ts';
import { mockXhr, type FakeXhrRequest } from '../../test/xhr-mock.ts';
import { UploadFailure, isChunkedUpload, uploadFile } from './upload-file.ts';

/** A file that reports `size` bytes without holding them (jsdom would have to allocate them). */
function sizedFile(name: string, size: number, type = 'application/octet-stream'): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

const created = makeUploadResponse;

/** A new chunked session's answer. */
const session = (uploadId = 'up1', chunkSize = CHUNK_SIZE) =>
  reply(201, { uploadId, chunkSize, expiresAt: '2030-01-01' });

/** A session's status: the chunks the server holds of a three-chunk movie.mkv. */
const status = (
  receivedChunks: number[],
  overrides: Partial<ChunkStatusResponse> = {},
): ChunkStatusResponse => ({
  uploadId: 'up1',
  filename: 'movie.mkv',
  totalSize: 2 * CHUNK_SIZE + 1000,
  totalChunks: 3,
  chunkSize: CHUNK_SIZE,
  receivedChunks,
  expiresAt: '2030-01-01',
  ...overrides,
});
const fieldNames = (request: FakeXhrRequest) => [...request.body.keys()];

beforeEach(() => localStorage.setItem('auth_token', 'tok'));

describe('isChunkedUpload', () => {
  it("sends files over the server's simple-upload limit in chunks (100 MB unless it says)", () => {
    expect(isChunkedUpload({ size: 100 * 1024 * 1024 })).toBe(false);
    expect(isChunkedUpload({ size: 100 * 1024 * 1024 + 1 })).toBe(true);
    expect(isChunkedUpload({ size: 2001 }, 2000)).toBe(true);
    expect(isChunkedUpload({ size: 2000 }, 2000)).toBe(false);
  });
});

describe('uploadFile, simple', () => {
  it('posts the file with the token and reports byte progress capped at 90', async () => {
    const upload = makeUpload();
    const { requests } = mockXhr((request) => {
      request.progress(25, 100);
      request.progress(100, 100);
      request.respond(201, created(upload));
    });
    const progress: number[] = [];

    const result = await uploadFile(new File(['hello'], 'a.txt', { type: 'text/plain' }), {
      onProgress: (p) => progress.push(p),
    });

    expect(result.upload).toEqual(upload);
    expect(progress).toEqual([25, 90]);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe('POST');
    expect(requests[0]!.path).toBe('/api/upload');
    expect(requests[0]!.headers.authorization).toBe('Bearer tok');
    expect(fieldNames(requests[0]!)).toEqual(['file']);
    expect((requests[0]!.body.get('file') as File).name).toBe('a.txt');
  });

  it('sends isPublic before the file when given', async () => {
    const { requests } = mockXhr((request) => request.respond(201, created(makeUpload())));
    await uploadFile(new File(['x'], 'a.txt'), { isPublic: false });
    expect(fieldNames(requests[0]!)).toEqual(['isPublic', 'file']);
    expect(requests[0]!.body.get('isPublic')).toBe('false');
  });

  it("fails with the server's message, or 'Upload failed' when the connection drops", async () => {
    mockXhr((request) =>
      request.respond(413, { error: 'payload_too_large', message: 'Storage quota exceeded' }),
    );
    const refused = await uploadFile(new File(['x'], 'a.txt')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UploadFailure);
    expect(refused).toMatchObject({ step: 'Upload failed', message: 'Storage quota exceeded' });

    mockXhr((request) => request.fail());
    const dropped = await uploadFile(new File(['x'], 'a.txt')).catch((e: unknown) => e);
    expect(dropped).toMatchObject({ step: 'Upload failed', message: 'Upload failed' });
  });
});

describe('uploadFile, chunked', () => {
  const size = 2 * CHUNK_SIZE + 1000; // three chunks, the last one short
  const big = () => sizedFile('movie.mkv', size, 'video/x-matroska');

  function chunkIndexes(requests: FakeXhrRequest[]) {
    return requests.map((request) => Number(request.body.get('chunkIndex')));
  }

  it('inits, sends every chunk with its fields first, completes, and caps progress at 90', async () => {
    const upload = makeUpload({ originalFilename: 'movie.mkv', size });
    const { requests: calls } = mockApi({
      chunkedInit: session(),
      chunkedComplete: reply(201, created(upload)),
    });
    const { requests } = mockXhr((request) => {
      request.progress(50, 100);
      request.progress(100, 100);
      request.respond(204);
    });
    const progress: number[] = [];
    const sessions: string[] = [];

    const result = await uploadFile(big(), {
      onProgress: (p) => progress.push(p),
      onChunkedSession: (id) => sessions.push(id),
    });

    expect(result.upload).toEqual(upload);
    expect(sessions).toEqual(['up1']);
    expect(await calls[0]!.json()).toEqual({
      filename: 'movie.mkv',
      mimeType: 'video/x-matroska',
      totalSize: size,
      totalChunks: 3,
    });
    expect(chunkIndexes(requests)).toEqual([0, 1, 2]);
    for (const request of requests) {
      expect(request.path).toBe('/api/chunked-upload/chunk');
      expect(fieldNames(request)).toEqual(['uploadId', 'chunkIndex', 'chunk']);
      expect(request.body.get('uploadId')).toBe('up1');
      expect(request.headers.authorization).toBe('Bearer tok');
    }
    expect(await calls.at(-1)!.json()).toEqual({ uploadId: 'up1' });
    // Half of the first chunk is about a sixth of the file; nothing ever passes 90.
    expect(progress[1]).toBeCloseTo((CHUNK_SIZE / 2 / size) * 100, 5);
    expect(Math.max(...progress)).toBe(90);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('resumes a session from the chunks the server already has', async () => {
    const { requests: calls } = mockApi({
      chunkedStatus: status([0, 2], { uploadId: 'up9' }),
      chunkedComplete: reply(201, created(makeUpload())),
    });
    const { requests } = mockXhr((request) => request.respond(204));
    const progress: number[] = [];

    await uploadFile(big(), { resumeUploadId: 'up9', onProgress: (p) => progress.push(p) });

    expect(calls.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'GET /api/chunked-upload/up9',
      'POST /api/chunked-upload/complete',
    ]);
    expect(chunkIndexes(requests)).toEqual([1]);
    expect(progress[0]).toBeCloseTo(((CHUNK_SIZE + 1000) / size) * 100, 5);
  });

  it('starts a new session when the one to resume is gone', async () => {
    const { requests: calls } = mockApi({
      chunkedStatus: refuse(404, 'Upload session not found'),
      chunkedInit: session('new'),
      chunkedComplete: reply(201, created(makeUpload())),
    });
    const { requests } = mockXhr((request) => request.respond(204));
    await uploadFile(big(), { resumeUploadId: 'old' });
    expect(calls.map((r) => new URL(r.url).pathname)).toContain('/api/chunked-upload/init');
    expect(requests.map((r) => r.body.get('uploadId'))).toEqual(['new', 'new', 'new']);
  });

  it('retries a failed chunk with backoff, asking the server first, then carries on', async () => {
    mockApi({
      chunkedInit: session(),
      chunkedStatus: status([0]),
      chunkedComplete: reply(201, created(makeUpload())),
    });
    let failures = 0;
    const { requests } = mockXhr((request) => {
      if (request.body.get('chunkIndex') === '1' && failures < 2) {
        failures++;
        if (failures === 1) request.fail();
        else request.respond(503, { error: 'unavailable', message: 'Try again' });
        return;
      }
      request.respond(204);
    });
    const sleep = vi.fn(async () => {});

    await uploadFile(big(), { sleep });

    expect(sleep.mock.calls).toEqual([[500], [1000]]);
    expect(chunkIndexes(requests)).toEqual([0, 1, 1, 1, 2]);
  });

  it('does not send a chunk again when the failed request reached the server after all', async () => {
    const { requests: calls } = mockApi({
      chunkedInit: session(),
      chunkedStatus: status([0, 1]),
      chunkedComplete: reply(201, created(makeUpload())),
    });
    const { requests } = mockXhr((request) => {
      if (request.body.get('chunkIndex') === '1') request.fail();
      else request.respond(204);
    });

    await uploadFile(big(), { sleep: async () => {} });

    expect(chunkIndexes(requests)).toEqual([0, 1, 2]);
    expect(calls.filter((r) => r.method === 'GET')).toHaveLength(1);
  });

  it("fails the file with 'Failed to upload chunk' after three retries", async () => {
    mockApi({
      chunkedInit: session(),
      chunkedStatus: status([]),
    });
    const { requests } = mockXhr((request) => request.fail());
    const sleep = vi.fn(async () => {});

    const error = await uploadFile(big(), { sleep }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UploadFailure);
    expect(error).toMatchObject({
      step: 'Failed to upload chunk',
      message: 'Failed to upload chunk',
    });
    expect(sleep.mock.calls).toEqual([[500], [1000], [2000]]);
    expect(chunkIndexes(requests)).toEqual([0, 0, 0, 0]);
  });

  it('waits out a chunk still held by a request that died with its server, then sends it', async () => {
    mockApi({
      chunkedInit: session(),
      chunkedStatus: status([0]),
      chunkedComplete: reply(201, created(makeUpload())),
    });
    let tries = 0;
    const { requests } = mockXhr((request) => {
      if (request.body.get('chunkIndex') !== '1') return request.respond(204);
      tries++;
      // The instance died mid-chunk: the connection drops, then the chunk stays claimed.
      if (tries === 1) return request.fail();
      if (tries <= 4) {
        return request.respond(409, {
          error: 'conflict',
          message: 'Chunk 1 is already being received',
        });
      }
      request.respond(204);
    });
    const sleep = vi.fn(async () => {});

    await uploadFile(big(), { sleep });

    expect(sleep.mock.calls).toEqual([[500], [2500], [2500], [2500]]);
    expect(chunkIndexes(requests)).toEqual([0, 1, 1, 1, 1, 1, 2]);
  });

  it('stops sending a held chunk once the request that held it has stored it', async () => {
    let statusCalls = 0;
    mockApi({
      chunkedInit: session(),
      chunkedStatus: () => status(statusCalls++ < 1 ? [] : [0]),
      chunkedComplete: reply(201, created(makeUpload())),
    });
    const { requests } = mockXhr((request) =>
      request.body.get('chunkIndex') === '0'
        ? request.respond(409, { error: 'conflict', message: 'Chunk 0 is already being received' })
        : request.respond(204),
    );

    await uploadFile(big(), { sleep: async () => {} });

    expect(chunkIndexes(requests)).toEqual([0, 0, 1, 2]);
  });

  it('gives up on a chunk held for longer than a dead request can hold it', async () => {
    mockApi({
      chunkedInit: session(),
      chunkedStatus: status([]),
    });
    const { requests } = mockXhr((request) =>
      request.respond(409, { error: 'conflict', message: 'Chunk 0 is already being received' }),
    );
    const sleep = vi.fn(async () => {});

    const error = await uploadFile(big(), { sleep }).catch((e: unknown) => e);

    expect(error).toMatchObject({
      step: 'Failed to upload chunk',
      message: 'Chunk 0 is already being received',
    });
    // 40 s of waiting in 2.5 s steps: 16 waits, 17 tries.
    expect(sleep.mock.calls).toEqual(Array.from({ length: 16 }, () => [2500]));
    expect(requests).toHaveLength(17);
  });

  it('does not retry a chunk the server refuses outright, and shows its reason', async () => {
    mockApi({
      chunkedInit: session(),
    });
    const { requests } = mockXhr((request) =>
      request.respond(400, { error: 'validation_error', message: 'Chunk 0 has the wrong size' }),
    );
    const sleep = vi.fn(async () => {});

    const error = await uploadFile(big(), { sleep }).catch((e: unknown) => e);

    expect(error).toMatchObject({
      step: 'Failed to upload chunk',
      message: 'Chunk 0 has the wrong size',
    });
    expect(sleep).not.toHaveBeenCalled();
    expect(requests).toHaveLength(1);
  });

  it('names the failing step for init and complete', async () => {
    mockApi({
      chunkedInit: refuse(413, 'Storage quota exceeded'),
    });
    mockXhr();
    await expect(uploadFile(big())).rejects.toMatchObject({
      step: 'Failed to initialize upload',
      message: 'Storage quota exceeded',
    });

    mockApi({
      chunkedInit: session(),
      chunkedComplete: refuse(400, 'Missing chunks: 2'),
    });
    mockXhr((request) => request.respond(204));
    await expect(uploadFile(big())).rejects.toMatchObject({
      step: 'Failed to complete upload',
      message: 'Missing chunks: 2',
    });
  });
});

describe("uploadFile, the server's limits", () => {
  const limits = { chunkSize: 1000, maxSimpleUploadBytes: 2000 };

  it('goes chunked above maxSimpleUploadBytes and cuts chunks at the size init answers', async () => {
    const { requests: calls } = mockApi({
      chunkedInit: session('up1', 1000),
      chunkedComplete: reply(201, created(makeUpload())),
    });
    const { requests } = mockXhr((request) => request.respond(204));
    const file = new File(['x'.repeat(2500)], 'notes.txt', { type: 'text/plain' });

    await uploadFile(file, { limits });

    expect(await calls[0]!.json()).toMatchObject({ totalSize: 2500, totalChunks: 3 });
    const sizes = requests.map((request) => (request.body.get('chunk') as Blob).size);
    expect(sizes).toEqual([1000, 1000, 500]);
  });

  it('sends a file at the limit in one request', async () => {
    mockApi({});
    const { requests } = mockXhr((request) => request.respond(201, created(makeUpload())));
    await uploadFile(new File(['x'.repeat(2000)], 'a.txt'), { limits });
    expect(requests.map((r) => r.path)).toEqual(['/api/upload']);
  });

  it('slices by the chunk size of the session it resumes', async () => {
    mockApi({
      chunkedStatus: status([0], {
        uploadId: 'old',
        filename: 'notes.txt',
        totalSize: 2500,
        totalChunks: 2,
        chunkSize: 2000,
      }),
      chunkedComplete: reply(201, created(makeUpload())),
    });
    const { requests } = mockXhr((request) => request.respond(204));
    await uploadFile(new File(['x'.repeat(2500)], 'notes.txt'), {
      limits,
      resumeUploadId: 'old',
    });
    expect(requests.map((r) => r.body.get('chunkIndex'))).toEqual(['1']);
    expect((requests[0]!.body.get('chunk') as Blob).size).toBe(500);
  });
});

describe('uploadFile, completing', () => {
  const limits = { chunkSize: 1000, maxSimpleUploadBytes: 1000 };
  const file = () => new File(['x'.repeat(1500)], 'a.bin');
  const dropped = (): Answer<'chunkedComplete'> => {
    throw new TypeError('Failed to fetch');
  };

  function completeAnswers(...answers: (() => Answer<'chunkedComplete'>)[]) {
    let n = 0;
    const { sent } = mockApi({
      chunkedInit: session('up1', 1000),
      chunkedComplete: () => answers[Math.min(n++, answers.length - 1)]!(),
    });
    mockXhr((request) => request.respond(204));
    return () => sent('chunkedComplete').length;
  }

  it('asks again after a dropped connection, a 5xx and a 409 while another request completes', async () => {
    const upload = makeUpload({ originalFilename: 'a.bin' });
    const completes = completeAnswers(
      dropped,
      () => refuse(503, 'Busy', 'internal_error'),
      () => refuse(409, 'Upload is already being completed'),
      () => created(upload), // the same upload, finished by the other request
    );
    const sleep = vi.fn(async () => {});

    const result = await uploadFile(file(), { limits, sleep });

    expect(result.upload).toEqual(upload);
    expect(completes()).toBe(4);
    expect(sleep.mock.calls).toEqual([[500], [1000], [2000]]);
  });

  it("gives up with 'Failed to complete upload' after the retries", async () => {
    const completes = completeAnswers(dropped);
    const error = await uploadFile(file(), { limits, sleep: async () => {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ step: 'Failed to complete upload' });
    expect(completes()).toBe(4);
  });

  it('does not repeat a completion the server refuses for good', async () => {
    const completes = completeAnswers(() => refuse(400, 'Missing chunks: 1'));
    const sleep = vi.fn(async () => {});
    await expect(uploadFile(file(), { limits, sleep })).rejects.toMatchObject({
      step: 'Failed to complete upload',
      message: 'Missing chunks: 1',
    });
    expect(completes()).toBe(1);
    expect(sleep).not.toHaveBeenCalled();
  });
});
