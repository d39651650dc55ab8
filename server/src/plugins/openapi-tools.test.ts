/**
 * What the tools of the ecosystem make of GET /api/openapi.json, served by a listening server:
 * Redocly's recommended rules find nothing to say, openapi-typescript generates types with one
 * operation per route-table entry, and openapi-fetch, going by the document's paths for the
 * operations it names, signs in, uploads a file, lists it and downloads it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { API, type Endpoint } from '@upshot/contract';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveServer, startProcess, tempDir, type LiveServer } from '../../test/live-server.ts';
import { createUser } from '../../test/users.ts';

type Document = {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

/** Any operation: the client knows each one only at run time, from the document. */
type AnyOperation = {
  parameters: { query?: Record<string, unknown>; path?: Record<string, unknown> };
  requestBody?: { content: Record<string, unknown> };
  responses: Record<number, { content: Record<string, unknown> }>;
};
type Method = 'get' | 'post';

const require = createRequire(import.meta.url);
const serverDir = path.resolve(import.meta.dirname, '../..');

let server: LiveServer;
let docUrl: string;
let doc: Document;
let dir: string;
beforeAll(async () => {
  server = await startLiveServer();
  docUrl = `${server.url}/api/openapi.json`;
  doc = (await (await fetch(docUrl)).json()) as Document;
  dir = tempDir('upshot-openapi-');
});
afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The method and path the document gives the operation of this name. */
function operation(name: string): { method: Method; path: string } {
  for (const [at, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op.operationId === name) return { method: method as Method, path: at };
    }
  }
  throw new Error(`no operation ${name} in the document`);
}

/** Every operation the document should name: the table's entries, and the HEAD of each file. */
const names = (Object.entries(API) as [string, Endpoint][]).flatMap(([name, e]) =>
  e.produces && e.method === 'GET' ? [name, `${name}Head`] : [name],
);

describe('the OpenAPI document and its tools', () => {
  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const cli = path.join(path.dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
    const config = path.join(serverDir, 'redocly.yaml');
    const run = startProcess(
      process.execPath,
      [cli, 'lint', docUrl, '--config', config, '--format', 'json', '--max-problems', '1000'],
      { cwd: dir, env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    );
    const { code, stdout, stderr } = await run.done;
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems.map(
      (p) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`,
    );
    expect(problems, stderr).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(code).toBe(0);
  });

  it('openapi-typescript generates types with an operation per entry', async () => {
    const types = astToString(await openapiTS(new URL(docUrl)));
    fs.writeFileSync(path.join(dir, 'openapi.d.ts'), types);
    const operations = types.slice(types.indexOf('export interface operations {'));
    const generated = [...operations.matchAll(/^ {4}(\w+): \{$/gm)].map((m) => m[1]);
    expect(generated.sort()).toEqual([...names].sort());
  });

  it('openapi-fetch signs in, uploads a file, lists it and downloads it', async () => {
    const client = createClient<Record<string, Record<Method, AnyOperation>>>({
      baseUrl: server.url,
    });
    const { row, password } = await createUser(server.ctx);

    const login = operation('login');
    const signedIn = await client.request(login.method, login.path, {
      body: { email: row.email, password },
    });
    expect(signedIn.response.status).toBe(200);
    const { token } = signedIn.data as { token: string };
    const headers = { authorization: `Bearer ${token}` };

    const form = new FormData();
    form.append('isPublic', 'false');
    form.append('file', new Blob(['hello, generated client'], { type: 'text/plain' }), 'hi.txt');
    const upload = operation('uploadFile');
    const uploaded = await client.request(upload.method, upload.path, { body: form, headers });
    expect(uploaded.response.status).toBe(201);
    const { upload: made } = uploaded.data as { upload: { id: string; shortCode: string } };

    const list = operation('listUploads');
    const listed = await client.request(list.method, list.path, {
      params: { query: { search: 'hi.txt' } },
      headers,
    });
    expect(listed.response.status).toBe(200);
    const { uploads } = listed.data as { uploads: { id: string; originalFilename: string }[] };
    expect(uploads.map((u) => [u.id, u.originalFilename])).toEqual([[made.id, 'hi.txt']]);

    const file = operation('file');
    const downloaded = await client.request(file.method, file.path, {
      params: { path: { slug: made.shortCode } },
      headers,
      parseAs: 'text',
    });
    expect(downloaded.response.status).toBe(200);
    expect(downloaded.data).toBe('hello, generated client');
  });
});
