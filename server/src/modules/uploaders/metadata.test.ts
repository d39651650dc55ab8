/**
 * A photo with its GPS position, camera and serial number in it, uploaded as the desktop
 * uploaders do (ShareX from its downloaded config, the real bash script), over a listening
 * server: the link serves it without them, its orientation and colour profile kept.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPlanted, expectStripped, photoWithMetadata } from '../../../test/images.ts';
import {
  bashScriptUser,
  createTokenUser,
  startLiveServer,
  startProcess,
  tempDir,
  type LiveServer,
} from '../../../test/live-server.ts';
import { multipart } from '../../../test/uploads.ts';

let server: LiveServer;
let root: string;
let photo: Buffer;
beforeAll(async () => {
  server = await startLiveServer();
  root = tempDir('upshot-metadata-');
  photo = await photoWithMetadata('jpeg');
  await expectPlanted(photo, 'jpeg');
});
afterAll(async () => {
  await server?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

async function fetchBytes(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('a photo with GPS tags, uploaded by the desktop uploaders', () => {
  it('through the ShareX config is served stripped', async () => {
    const { user, token } = await createTokenUser(server.ctx);
    const download = await fetch(`${server.url}/api/users/${user.id}/sharex-config`, {
      headers: { 'x-api-token': token },
    });
    expect(download.status).toBe(200);
    const config = (await download.json()) as {
      RequestMethod: string;
      RequestURL: string;
      Headers: Record<string, string>;
      Body: string;
      FileFormName: string;
      URL: string;
    };
    expect(config.Body).toBe('MultipartFormData');
    // As ShareX sends a screenshot or a file: the config's method, URL, headers and field.
    const body = multipart(
      {},
      {
        field: config.FileFormName,
        filename: 'IMG_0001.jpg',
        contentType: 'image/jpeg',
        data: photo,
      },
    );
    const res = await fetch(config.RequestURL, {
      method: config.RequestMethod,
      headers: { ...config.Headers, ...body.headers },
      body: body.payload,
    });
    expect(res.status).toBe(201);
    const answer: unknown = await res.json();
    // ShareX's {json:a.b} syntax, resolved against the answer.
    const url = config.URL.replace(/\{json:([^}]+)\}/g, (_, at: string) =>
      String(at.split('.').reduce((v, key) => (v as Record<string, unknown>)[key], answer)),
    );
    await expectStripped(await fetchBytes(url), photo, 'jpeg');
  });

  it('through the bash script is served stripped', async () => {
    const s = await bashScriptUser(server, root, `meta ${crypto.randomBytes(3).toString('hex')}`);
    fs.writeFileSync(path.join(s.files, 'IMG_0002.jpg'), photo);
    const result = await startProcess('bash', [s.script, 'IMG_0002.jpg'], {
      cwd: s.files,
      env: s.env,
    }).done;
    expect(result.code, result.stderr).toBe(0);
    const link = result.stdout.trim();
    expect(link).toMatch(new RegExp(`^${server.url}/[A-Za-z0-9_-]+$`));
    await expectStripped(await fetchBytes(link), photo, 'jpeg');
  });
});
