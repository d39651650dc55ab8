// How a new upload's link settings travel: multipart fields before the file's bytes for a simple
// upload, the init JSON for a chunked one.
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUpload, makeUploadResponse } from '../../test/fixtures.ts';
import { mockApi, reply } from '../../test/mock-api.ts';
import { mockXhr, type FakeXhrRequest } from '../../test/xhr-mock.ts';
import { uploadFile } from './upload-file.ts';

const created = makeUploadResponse;
const fieldNames = (request: FakeXhrRequest) => [...request.body.keys()];
const limits = { chunkSize: 1000, maxSimpleUploadBytes: 2000 };

beforeEach(() => localStorage.setItem('auth_token', 'tok'));

describe('uploadFile, link settings', () => {
  it('sends them as fields before the file: the view limit as digits, or none', async () => {
    const { requests } = mockXhr((request) => request.respond(201, created(makeUpload())));
    const file = new File(['x'], 'a.txt');
    await uploadFile(file, { isPublic: true, expires: '7d', maxViews: 3, password: 'pw' });
    await uploadFile(file, { expires: 'never', maxViews: null });

    expect(fieldNames(requests[0]!)).toEqual([
      'isPublic',
      'expires',
      'maxViews',
      'password',
      'file',
    ]);
    expect(Object.fromEntries([...requests[0]!.body.entries()].slice(0, 4))).toEqual({
      isPublic: 'true',
      expires: '7d',
      maxViews: '3',
      password: 'pw',
    });
    expect(fieldNames(requests[1]!)).toEqual(['expires', 'maxViews', 'file']);
    expect(requests[1]!.body.get('expires')).toBe('never');
    expect(requests[1]!.body.get('maxViews')).toBe('none');
  });

  it('puts them in the chunked init JSON, the view limit as a number or null', async () => {
    const { bodies } = mockApi({
      chunkedInit: reply(201, { uploadId: 'up1', chunkSize: 1000, expiresAt: '2030-01-01' }),
      chunkedComplete: reply(201, created(makeUpload())),
    });
    mockXhr((request) => request.respond(204));
    const file = new File(['x'.repeat(2500)], 'log.txt', { type: 'text/plain' });
    await uploadFile(file, {
      limits,
      isPublic: false,
      expires: '30m',
      maxViews: 2,
      password: 'pw',
    });
    await uploadFile(file, { limits, maxViews: null });

    expect(await bodies('chunkedInit')).toEqual([
      {
        filename: 'log.txt',
        mimeType: 'text/plain',
        totalSize: 2500,
        totalChunks: 3,
        isPublic: false,
        expires: '30m',
        maxViews: 2,
        password: 'pw',
      },
      {
        filename: 'log.txt',
        mimeType: 'text/plain',
        totalSize: 2500,
        totalChunks: 3,
        maxViews: null,
      },
    ]);
  });
});
