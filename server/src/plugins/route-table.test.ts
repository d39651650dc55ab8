/**
 * The route table as the server runs it: every registered route is a table entry, the access
 * guard answers before anything else, nothing a client sends makes a 5xx, and an answer carries
 * no field beyond its response schema (and never a hash, digest or storage key).
 */
import { noSuchLinkPage } from '../modules/links/pages.ts';
import {
  API,
  AuthResponse,
  ChunkInitResponse,
  ChunkStatusResponse,
  SPA_ROUTES,
  ServerConfig,
  AccessUrlResponse,
  ListUploadsResponse,
  Upload,
  UploadResponse,
  User,
  routePath,
  type Endpoint,
  type EndpointName,
} from '@upshot/contract';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { malformedJson } from '../../test/bad-input.ts';
import { createTestContext, type TestContext } from '../../test/context.ts';
import {
  expectExactShape,
  refusalProblem,
  requestFor,
  routeTableApp,
  withControlCharacters,
  withLoneSurrogates,
  type Input,
} from '../../test/route-requests.ts';
import { recordRoutes, type RecordedRoute } from '../../test/routes.ts';
import { multipart } from '../../test/uploads.ts';
import { signIn } from '../../test/users.ts';
import { createWebDist, INDEX_HTML, type WebDist } from '../../test/web-dist.ts';
import { DOCS_PREFIX } from './openapi.ts';
import { route } from './route-table.ts';

const entries = Object.entries(API) as [EndpointName, Endpoint][];
const nonPublic = entries.filter(([, e]) => e.access !== 'public');
const adminOnly = entries.filter(([, e]) => e.access === 'admin');

let ctx: TestContext;
let routes: RecordedRoute[];
let dist: WebDist;
let owner: Awaited<ReturnType<typeof signIn>>;
let administrator: Awaited<ReturnType<typeof signIn>>;
let deletionSignature: string;
let upload: z.infer<typeof Upload>;
let sessionId: string;
let tagId: string;

/** Every answer body this file produced: none may carry a secret (checked last). */
const bodies: string[] = [];
async function send(options: InjectOptions): Promise<LightMyRequestResponse> {
  const res = await ctx.app.inject(options);
  bodies.push(res.body);
  return res;
}

beforeAll(async () => {
  dist = createWebDist();
  ({ result: ctx, routes } = await recordRoutes(() =>
    createTestContext({ PUBLIC_URL: 'https://up.example.com' }, { webDistDir: dist.dir }),
  ));
  owner = await signIn(ctx);
  administrator = await signIn(ctx, 'admin');
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
    .png()
    .toBuffer();
  const body = multipart({}, { filename: 'dot.png', contentType: 'image/png', data: png });
  const res = await send({
    method: 'POST',
    url: '/api/upload',
    headers: { ...owner.auth, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode).toBe(201);
  const uploaded = res.json<z.infer<typeof UploadResponse>>();
  upload = uploaded.upload;
  deletionSignature = new URL(uploaded.deletionUrl).searchParams.get('signature')!;
  const init = await send({
    method: 'POST',
    url: '/api/chunked-upload/init',
    headers: owner.auth,
    payload: { filename: 'big.bin', mimeType: 'text/plain', totalSize: 5, totalChunks: 1 },
  });
  expect(init.statusCode).toBe(201);
  sessionId = init.json<{ uploadId: string }>().uploadId;
  const tag = await send({
    method: 'POST',
    url: '/api/tags',
    headers: owner.auth,
    payload: { name: 'red' },
  });
  expect(tag.statusCode).toBe(201);
  tagId = tag.json<{ tag: { id: string } }>().tag.id;
});
afterAll(async () => {
  await ctx.close();
  dist.remove();
});

// --- Inputs ----------------------------------------------------------------------------------

/** A valid input of every entry that takes one (ids of real rows, made in beforeAll). */
function samples(): Partial<Record<EndpointName, Input>> {
  const id = { id: upload.id };
  return {
    login: { body: { email: 'someone@example.com', password: 'correct horse battery' } },
    uploadFile: { form: { isPublic: 'true', expires: '7d', maxViews: '5', password: 'secret' } },
    listUploads: {
      query: { search: 'dot', type: 'images', tag: tagId, sort: 'newest', page: '1', limit: '20' },
    },
    getUpload: { params: id },
    uploadAccessUrl: { params: id, query: { ttl: '3600' } },
    updateUpload: { params: id, body: { vanityUrl: 'my-dot' } },
    deleteUpload: { params: id },
    batchDeleteUploads: { body: { uploadIds: [upload.id] } },
    batchPrivacy: { body: { uploadIds: [upload.id], isPublic: true } },
    createTag: { body: { name: 'blue' } },
    renameTag: { params: { tagId }, body: { name: 'crimson' } },
    updatePreferences: { body: { theme: 'dark', uploadsPerPage: 30 } },
    deleteTag: { params: { tagId } },
    tagUploads: {
      params: { tagId },
      query: { search: 'dot', type: 'images', sort: 'newest', page: '1', limit: '20' },
    },
    addTagToUpload: { params: { tagId, uploadId: upload.id } },
    removeTagFromUpload: { params: { tagId, uploadId: upload.id } },
    batchAddTag: { body: { uploadIds: [upload.id], tagId } },
    batchRemoveTag: { body: { uploadIds: [upload.id], tagId } },
    chunkedInit: {
      body: {
        filename: 'big.bin',
        mimeType: 'application/octet-stream',
        totalSize: 5,
        totalChunks: 1,
        isPublic: true,
      },
    },
    chunkedChunk: {
      query: { uploadId: sessionId, chunkIndex: '0' },
      form: { uploadId: sessionId, chunkIndex: '0' },
    },
    chunkedComplete: { body: { uploadId: sessionId } },
    chunkedStatus: { params: { uploadId: sessionId } },
    chunkedAbort: { params: { uploadId: sessionId } },
    thumbnail: { params: { code: upload.shortCode } },
    file: { params: { slug: upload.shortCode } },
    getUser: { params: { id: owner.user.id } },
    listUsers: {
      query: { search: 'user', role: 'user', status: 'active', page: '1', limit: '20' },
    },
    createUser: {
      body: {
        email: 'new-user@example.com',
        username: 'new-user',
        role: 'user',
        sendInvite: false,
      },
    },
    updateUser: { params: { id: owner.user.id }, body: { diskQuota: 1_000_000 } },
    deleteUser: { params: { id: owner.user.id } },
    resetPassword: { params: { id: owner.user.id } },
    register: {
      body: { inviteCode: 'not-an-invite', password: 'a good password', username: 'me' },
    },
    inviteInfo: { params: { code: 'not-an-invite' } },
    requestAccess: {
      body: {
        email: 'visitor@example.com',
        name: 'A Visitor',
        reason: 'I would like to share files',
      },
    },
    listAccessRequests: { query: { status: 'pending', page: '1', limit: '20' } },
    decideAccessRequest: { params: { id: 'a1b2c3' }, body: { status: 'approved' } },
    deleteAccessRequest: { params: { id: 'a1b2c3' } },
    sendInvite: {
      body: {
        to: 'someone@example.com',
        username: 'someone',
        tempPassword: 'temporary-pass',
        inviteCode: 'code',
      },
    },
    auditLog: { query: { actor: owner.user.id, action: 'user.created', page: '1', limit: '20' } },
    changePassword: {
      params: { id: owner.user.id },
      body: { currentPassword: 'not the password', newPassword: 'a new password' },
    },
    regenerateApiToken: { params: { id: owner.user.id } },
    userSharexConfig: { params: { id: owner.user.id } },
    userBashScript: { params: { id: owner.user.id } },
    userPowershellScript: { params: { id: owner.user.id } },
    deletionPage: { params: id, query: { signature: deletionSignature } },
    deleteByLink: {
      params: id,
      query: { signature: deletionSignature },
      body: { signature: deletionSignature },
    },
    unlockFile: { params: { slug: upload.shortCode }, body: { password: 'secret' } },
    preview: { params: { slug: upload.shortCode } },
    oembed: { query: { url: `${ctx.config.publicUrl}/v/${upload.shortCode}` } },
    unlockPreview: { params: { slug: upload.shortCode }, body: { password: 'secret' } },
  };
}

const takesInput = ([, e]: [EndpointName, Endpoint]) =>
  Boolean(e.params || e.query || e.body || e.form);

function authFor(e: Endpoint): Record<string, string> {
  if (e.access === 'admin') return administrator.auth; // so its input is read, not refused first
  return e.access === 'public' ? {} : owner.auth;
}
const request = (e: Endpoint, input: Input) => requestFor(e, input, authFor(e));

/** A link not found answers a page: the web app's, or (a password's POST) the link's own. */
const notFoundPages: Partial<Record<EndpointName, string>> = {
  file: INDEX_HTML,
  unlockFile: noSuchLinkPage(),
  preview: noSuchLinkPage(),
  unlockPreview: noSuchLinkPage(),
};

async function refusals(
  name: EndpointName,
  cases: { label: string; options: InjectOptions }[],
  status?: number,
): Promise<string[]> {
  const failures: string[] = [];
  for (const { label, options } of cases) {
    const res = await send(options);
    const reason =
      refusalProblem(res, notFoundPages[name]) ??
      (status && res.statusCode !== status ? `${res.statusCode}, not ${status}` : null);
    if (reason) failures.push(`${name} ${label}: ${reason}`);
  }
  return failures;
}

const show = (s: string) => JSON.stringify(s).slice(0, 60);

// --- The registered routes -------------------------------------------------------------------

describe('the routes Fastify registered', () => {
  const isDocs = (r: RecordedRoute) => r.url === DOCS_PREFIX || r.url.startsWith(`${DOCS_PREFIX}/`);
  const isSpa = (r: RecordedRoute) =>
    (SPA_ROUTES as readonly string[]).includes(r.url) && r.endpoint === undefined;
  const isStatic = (r: RecordedRoute) => dist.files.includes(r.url) && r.endpoint === undefined;
  const fromTable = () =>
    routes.filter((r) => !isDocs(r) && !isSpa(r) && !isStatic(r) && !r.automaticHead);

  it('are all table entries (method and URL), besides the docs, the web app and automatic HEADs', () => {
    const strays = fromTable().flatMap((r) =>
      r.methods
        .filter(
          (m) =>
            !entries.some(
              ([, e]) =>
                e.path === r.url &&
                // A link answers HEAD itself; the table lists it as GET.
                (e.method === m || (m === 'HEAD' && e.method === 'GET' && e.produces)),
            ),
        )
        .map((m) => `${m} ${r.url}`),
    );
    expect(strays).toEqual([]);
  });

  it('were each registered from its own entry', () => {
    for (const r of fromTable()) {
      const entry = entries.find(([, e]) => e.path === r.url && r.methods.includes(e.method));
      expect(r.endpoint, `${r.methods.join()} ${r.url}`).toBe(entry?.[1]);
    }
  });

  it('include every entry of the table', () => {
    const missing = entries
      .filter(([, e]) => !routes.some((r) => r.url === e.path && r.methods.includes(e.method)))
      .map(([name, e]) => `${name}: ${e.method} ${e.path}`);
    expect(missing).toEqual([]);
  });

  it('left out only what is really there: the docs, every SPA route, the built files', () => {
    expect(routes.some((r) => r.url === DOCS_PREFIX && r.methods.includes('GET'))).toBe(true);
    for (const spa of SPA_ROUTES) expect(routes.some((r) => r.url === spa)).toBe(true);
    for (const file of dist.files) expect(routes.some((r) => r.url === file)).toBe(true);
    expect(routes.filter((r) => r.automaticHead).every((r) => r.methods.join() === 'HEAD')).toBe(
      true,
    );
  });
});

// --- Access ----------------------------------------------------------------------------------

/** Path params filled with a plausible id; a body that would not validate (the guard is first). */
function anonymous(e: Endpoint, headers: Record<string, string> = {}): InjectOptions {
  return {
    method: e.method,
    url: routePath(e.path, {
      id: 'a1b2c3',
      uploadId: 'a1b2c3',
      tagId: 'a1b2c3',
      code: 'a1b2c3',
      slug: 'a1b2c3',
    }),
    headers: e.body ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(e.body ? { payload: '{}' } : {}),
  };
}

describe('access', () => {
  it.each(nonPublic)(
    '%s answers 401 without credentials, before reading its input',
    async (_, e) => {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer not-a-session' },
        { authorization: 'Basic dXNlcjpwYXNz' },
        { 'x-api-token': 'up_not-a-token' },
      ];
      for (const headers of attempts) {
        const res = await send(anonymous(e, headers));
        expect(res.statusCode, JSON.stringify(headers)).toBe(401);
        expect(res.json()).toEqual({ error: 'unauthorized', message: 'Authentication required' });
      }
    },
  );

  it.each(nonPublic.filter(([, e]) => e.method === 'GET'))(
    '%s answers HEAD with 401 without credentials too',
    async (_, e) => {
      const res = await send({ ...anonymous(e, {}), method: 'HEAD' });
      expect(res.statusCode).toBe(401);
    },
  );

  it('every admin entry answers 403 to a plain user (the table may have none)', async () => {
    for (const [name, e] of adminOnly) {
      const res = await send(anonymous(e, owner.auth));
      expect(res.statusCode, name).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
  });

  it('the guard of an admin entry: 401 anonymous, 403 to a user, the handler for an admin', async () => {
    const entry = {
      method: 'GET',
      path: '/api/admin-only',
      access: 'admin',
      tag: 'Test',
      summary: 'An admin entry',
      responses: { 200: z.object({ ok: z.boolean() }) },
    } as const satisfies Endpoint;
    const app = await routeTableApp(ctx.modules.auth.service, [
      route(entry, async () => ({ ok: true })),
    ]);
    try {
      const admin = await signIn(ctx, 'admin');
      const call = (headers: Record<string, string>) =>
        app.inject({ method: 'GET', url: '/api/admin-only', headers });
      expect((await call({})).statusCode).toBe(401);
      const asUser = await call(owner.auth);
      expect(asUser.statusCode).toBe(403);
      expect(asUser.json()).toEqual({
        error: 'forbidden',
        message: 'You do not have permission to do this',
      });
      const asAdmin = await call(admin.auth);
      expect(asAdmin.statusCode).toBe(200);
      expect(asAdmin.json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
  });
});

// --- Bad input -------------------------------------------------------------------------------

describe('control characters in every string a route takes', () => {
  it('the named cases answer 400 with the field named', async () => {
    const nulEmail = await send({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'some\u0000one@example.com', password: 'correct horse battery' },
    });
    expect(nulEmail.statusCode).toBe(400);
    expect(nulEmail.json()).toEqual({
      error: 'validation_error',
      message: 'email: must not contain control characters',
    });

    const nulId = await send({ method: 'GET', url: '/api/uploads/%00', headers: owner.auth });
    expect(nulId.statusCode).toBe(400);
    expect(nulId.json()).toEqual({ error: 'validation_error', message: 'id: must be an id' });

    const field = multipart(
      { uploadId: `${sessionId}\u0000`, chunkIndex: '0' },
      { field: 'chunk', filename: 'c', data: Buffer.from('hello') },
    );
    const nulChunk = await send({
      method: 'POST',
      url: '/api/chunked-upload/chunk',
      headers: { ...owner.auth, ...field.headers },
      payload: field.payload,
    });
    expect(nulChunk.statusCode).toBe(400);
    expect(nulChunk.json()).toEqual({
      error: 'validation_error',
      message: 'uploadId: must be an id',
    });
    const bare = multipart({}, { field: 'chunk', filename: 'c', data: Buffer.from('hello') });
    const nulQuery = await send({
      method: 'POST',
      url: `/api/chunked-upload/chunk?uploadId=%00${sessionId}&chunkIndex=0`,
      headers: { ...owner.auth, ...bare.headers },
      payload: bare.payload,
    });
    expect(nulQuery.statusCode).toBe(400);
    expect(nulQuery.json().message).toBe('uploadId: must be an id');

    const nulMime = await send({
      method: 'POST',
      url: '/api/chunked-upload/init',
      headers: owner.auth,
      payload: { filename: 'a.bin', mimeType: 'text/plain\u0000', totalSize: 5, totalChunks: 1 },
    });
    expect(nulMime.statusCode).toBe(400);
    expect(nulMime.json()).toEqual({
      error: 'validation_error',
      message: 'mimeType: must not contain control characters',
    });
  });

  it('a file part whose name and type carry control characters is stored cleaned', async () => {
    const body = multipart(
      {},
      { filename: 'a\u0000b\u0007.txt', contentType: 'text/plain\u0000', data: Buffer.from('hi') },
    );
    const res = await send({
      method: 'POST',
      url: '/api/upload',
      headers: { ...owner.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const stored = res.json<z.infer<typeof UploadResponse>>().upload;
    expect(stored.originalFilename).toBe('ab.txt');
    expect(stored.mimeType).toBe('text/plain');
  });

  it('every sample input is accepted as it is (so a refusal below is the control character’s)', async () => {
    const all = samples();
    for (const name of ['listUploads', 'getUpload', 'uploadAccessUrl', 'chunkedStatus'] as const) {
      const res = await send(request(API[name], all[name]!));
      expect(res.statusCode, `${name} ${res.body}`).toBe(200);
    }
  });

  it.each(entries.filter(takesInput))('%s refuses them with a 4xx', async (name, e) => {
    const sample = samples()[name];
    expect(sample, `write a sample input for ${name}`).toBeDefined();
    const cases = withControlCharacters(e, sample!).map((c) => ({
      label: c.label,
      options: request(e, c.input),
    }));
    expect(cases.length).toBeGreaterThan(0);
    expect(await refusals(name, cases)).toEqual([]);
  });
});

describe('half a character (a lone surrogate) in every string a JSON body takes', () => {
  // Refused before: stored as one or three replacement characters depending on the engine, so
  // tags "\ud800" and "\udc00" were two tags on SQLite and a 409 on PostgreSQL.
  const jsonBodies = entries.filter(([, e]) => e.body);

  it.each(jsonBodies)('%s answers 400 naming the field', async (name, e) => {
    const cases = withLoneSurrogates(e, samples()[name]!);
    expect(cases.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const c of cases) {
      const res = await send(request(e, c.input));
      // A field with a format of its own (an email, an id) may refuse it as that first.
      const body = res.json<{ error: string; message: string }>();
      if (
        res.statusCode !== 400 ||
        body.error !== 'validation_error' ||
        !body.message.startsWith(`${c.path}: `)
      ) {
        failures.push(`${c.label}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it.each([
    ['createTag', 'name'],
    ['login', 'password'],
    ['requestAccess', 'name'],
    ['chunkedInit', 'filename'],
  ] as const)('%s refuses it in %s as half a character', async (name, field) => {
    const e = API[name];
    const cases = withLoneSurrogates(e, samples()[name]!).filter((c) => c.path === field);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      const res = await send(request(e, c.input));
      expect(res.statusCode, c.label).toBe(400);
      expect(res.json(), c.label).toEqual({
        error: 'validation_error',
        message: `${field}: must be valid Unicode text`,
      });
    }
  });

  it('a file name sent in UTF-16 with half a character is stored with a replacement for it', async () => {
    // busboy decodes `filename*=utf-16le''...` as UTF-16, half characters included: stored as
    // one replacement character on PostgreSQL and three on SQLite before.
    const boundary = 'upshot-utf16-name';
    const res = await send({
      method: 'POST',
      url: '/api/upload',
      headers: { ...owner.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload:
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; ` +
        `filename*=utf-16le''%41%00%00%D8%42%00\r\ncontent-type: text/plain\r\n\r\nhi\r\n` +
        `--${boundary}--\r\n`,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<z.infer<typeof UploadResponse>>().upload.originalFilename).toBe('A\ufffdB');
    const [row] = await ctx.handle.db
      .selectFrom('uploads')
      .select('original_filename')
      .where('id', '=', res.json<z.infer<typeof UploadResponse>>().upload.id)
      .execute();
    expect(row?.original_filename).toBe('A\ufffdB');
  });

  it('a well-formed pair (an emoji) is text like any other', async () => {
    const res = await send({
      method: 'POST',
      url: '/api/tags',
      headers: owner.auth,
      payload: { name: 'ok \ud83d\ude00' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().tag.name).toBe('ok 😀');
  });
});

describe('malformed requests', () => {
  const jsonBodies = entries.filter(([, e]) => e.body);
  /** Per entry, bodies that are not JSON: about 300 requests in all. */
  const perEntry = Math.ceil(300 / jsonBodies.length);

  it('make about 300 malformed JSON bodies in all', () => {
    const total = jsonBodies.reduce(
      (n, [name], i) =>
        n + malformedJson(JSON.stringify(samples()[name]!.body), perEntry, i + 1).length,
      0,
    );
    expect(total).toBeGreaterThanOrEqual(300);
  });

  it.each(jsonBodies)('%s: a body that is not JSON is a 400', async (name, e) => {
    const index = jsonBodies.findIndex(([n]) => n === name);
    const valid = JSON.stringify(samples()[name]!.body);
    const cases = malformedJson(valid, perEntry, index + 1).map((payload) => ({
      label: show(payload),
      options: request(e, { ...samples()[name], body: payload }),
    }));
    expect(cases.length).toBe(perEntry);
    // Refused as bodies, before any handler runs: 400, whatever the endpoint.
    expect(await refusals(name, cases, 400)).toEqual([]);
  });

  it.each(jsonBodies)('%s: wrong types, huge strings, arrays where objects go', async (name, e) => {
    const input = samples()[name]!;
    const body = input.body as Record<string, unknown>;
    const huge = 'x'.repeat(100_000);
    const values: unknown[] = [0, -1, 1.5, 1e308, true, false, null, {}, [], [[]], { a: {} }];
    values.push('', huge, ['x'], [huge], [{}], [null], [1]);
    const candidates: { label: string; value: unknown }[] = [];
    for (const key of Object.keys((e.body as z.ZodObject).shape)) {
      for (const v of values) {
        candidates.push({
          label: `${key}=${show(JSON.stringify(v))}`,
          value: { ...body, [key]: v },
        });
      }
    }
    for (const v of [[], [body], [[body]], 'a string', 123, true, null, {}, { body }]) {
      candidates.push({ label: `body=${show(JSON.stringify(v))}`, value: v });
    }
    // Only what the schema refuses: a value it takes (isPublic: true) is not bad input.
    const refused = candidates.filter((c) => !e.body!.safeParse(c.value).success);
    expect(refused.length).toBeGreaterThan(20);
    const cases = refused.map((c) => ({
      label: c.label,
      options: request(e, { ...input, body: JSON.stringify(c.value) }),
    }));
    expect(await refusals(name, cases, 400)).toEqual([]);

    const tooLarge = await send(
      request(e, {
        ...input,
        body: JSON.stringify({ ...body, padding: 'x'.repeat(2 * 1024 ** 2) }),
      }),
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({
      error: 'payload_too_large',
      message: 'Request body is too large',
    });

    const failuresByType = await refusals(
      name,
      [
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'multipart/form-data',
      ].map((type) => ({
        label: type,
        options: {
          ...request(e, { ...input, body: 'uploadId=x' }),
          headers: { ...authFor(e), 'content-type': type },
        },
      })),
    );
    expect(failuresByType).toEqual([]);
  });

  it.each(entries.filter(([, e]) => e.query))(
    '%s: query values of the wrong type',
    async (name, e) => {
      const input = samples()[name]!;
      const values = ['', 'x'.repeat(10_000), '-1', '0', '1.5', '1e400', 'NaN', 'Infinity', 'null'];
      values.push('true', '[]', '{}', '２０', 'newest; drop table uploads');
      const cases: { label: string; options: InjectOptions }[] = [];
      for (const key of Object.keys(input.query!)) {
        for (const v of values) {
          const query = { ...input.query, [key]: v };
          if (e.query!.safeParse(query).success) continue;
          cases.push({
            label: `${key}=${show(v)}`,
            options: request(e, { ...input, form: {}, query }),
          });
        }
        // The same key twice arrives as an array.
        const twice = new URLSearchParams(input.query);
        twice.append(key, input.query![key]!);
        cases.push({
          label: `${key} twice`,
          options: {
            ...request(e, { ...input, form: {} }),
            url: `${routePath(e.path, input.params)}?${twice}`,
          },
        });
      }
      expect(await refusals(name, cases)).toEqual([]);
    },
  );

  it.each(entries.filter(([, e]) => e.params))(
    '%s: path params that are not ids, or not even URLs',
    async (name, e) => {
      const key = Object.keys((e.params as z.ZodObject).shape)[0]!;
      const raw = (segment: string) => e.path.replace(`:${key}`, segment);
      const cases = [
        '%E0%A4%A',
        '%',
        '%zz',
        '%C0%80',
        '%ff',
        '%2F',
        'a'.repeat(101),
        'a'.repeat(5000),
      ].map((segment) => ({
        label: show(segment),
        options: { method: e.method, url: raw(segment), headers: authFor(e) },
      }));
      expect(await refusals(name, cases)).toEqual([]);
    },
  );
});

// --- Responses -------------------------------------------------------------------------------

describe('answers carry only their response schema', () => {
  it('GET /api/auth/me and POST /api/auth/login', async () => {
    const me = await send({ method: 'GET', url: '/api/auth/me', headers: owner.auth });
    expect(me.statusCode).toBe(200);
    expectExactShape(me.json(), User);
    const login = await send({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: owner.user.email, password: 'correct horse battery' },
      remoteAddress: '10.200.0.1',
    });
    expect(login.statusCode).toBe(200);
    expectExactShape(login.json(), AuthResponse);
  });

  it('the uploads endpoints, and a chunked upload from start to end', async () => {
    const one = await send({
      method: 'GET',
      url: `/api/uploads/${upload.id}`,
      headers: owner.auth,
    });
    expectExactShape(one.json(), Upload);
    const list = await send({ method: 'GET', url: '/api/uploads', headers: owner.auth });
    expect(list.json().uploads.length).toBeGreaterThan(0);
    expectExactShape(list.json(), ListUploadsResponse);
    const access = await send({
      method: 'GET',
      url: `/api/uploads/${upload.id}/access-url`,
      headers: owner.auth,
    });
    expectExactShape(access.json(), AccessUrlResponse);
    const vanity = await send({
      method: 'PATCH',
      url: `/api/uploads/${upload.id}`,
      headers: owner.auth,
      payload: { vanityUrl: 'shape-check' },
    });
    expect(vanity.statusCode).toBe(200);
    expectExactShape(vanity.json(), Upload);
    const config = await send({ method: 'GET', url: '/api/config' });
    expectExactShape(config.json(), ServerConfig);
    // The background runner makes the thumbnail (so a thumbnail key exists to look for below).
    await ctx.background.drain();
    const thumb = await send({ method: 'GET', url: `/thumb/${upload.shortCode}` });
    expect(thumb.statusCode).toBe(200);

    const init = await send({
      method: 'POST',
      url: '/api/chunked-upload/init',
      headers: owner.auth,
      payload: { filename: 'notes.txt', mimeType: 'text/plain', totalSize: 5, totalChunks: 1 },
    });
    expectExactShape(init.json(), ChunkInitResponse);
    const uploadId = init.json().uploadId as string;
    const chunk = multipart(
      { uploadId, chunkIndex: '0' },
      { field: 'chunk', filename: 'blob', data: Buffer.from('hello') },
    );
    const put = await send({
      method: 'POST',
      url: '/api/chunked-upload/chunk',
      headers: { ...owner.auth, ...chunk.headers },
      payload: chunk.payload,
    });
    expect(put.statusCode).toBe(204);
    const status = await send({
      method: 'GET',
      url: `/api/chunked-upload/${uploadId}`,
      headers: owner.auth,
    });
    expectExactShape(status.json(), ChunkStatusResponse);
    const done = await send({
      method: 'POST',
      url: '/api/chunked-upload/complete',
      headers: owner.auth,
      payload: { uploadId },
    });
    expect(done.statusCode).toBe(201);
    expectExactShape(done.json(), UploadResponse);
  });

  it('a field a handler adds is dropped on the way out', async () => {
    const entry = {
      method: 'GET',
      path: '/api/leaky',
      access: 'public',
      tag: 'Test',
      summary: 'A handler that answers more than its schema',
      responses: { 200: z.object({ user: z.object({ id: z.string() }) }) },
    } as const satisfies Endpoint;
    const app = await routeTableApp(ctx.modules.auth.service, [
      route(entry, async () => ({ user: { id: 'u1', password_hash: '$argon2id$leak' } }) as never),
    ]);
    try {
      const res = await app.inject({ method: 'GET', url: '/api/leaky' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ user: { id: 'u1' } });
      expect(res.body).not.toContain('argon2');
    } finally {
      await app.close();
    }
  });

  // Last in the file: it reads every body the tests above produced.
  it('no answer of this file carried a password hash, token digest or storage key', async () => {
    const db = ctx.handle.db;
    const users = await db
      .selectFrom('users')
      .select(['password_hash', 'api_token_encrypted', 'api_token_digest'])
      .execute();
    const sessions = await db.selectFrom('sessions').select('token_digest').execute();
    const uploads = await db
      .selectFrom('uploads')
      .select(['storage_key', 'thumbnail_key'])
      .execute();
    const chunked = await db
      .selectFrom('chunked_uploads')
      .select(['storage_key', 'multipart_id'])
      .execute();
    const keys = [
      ...uploads.flatMap((u) => [u.storage_key, u.thumbnail_key]),
      ...chunked.map((c) => c.storage_key),
    ].filter((k): k is string => Boolean(k));
    const secrets = [
      ...users.flatMap((u) => [u.password_hash, u.api_token_encrypted, u.api_token_digest]),
      ...sessions.map((s) => s.token_digest),
      ...keys,
      // A key's last segment is its unique part, however a path would be spelled.
      ...keys.map((k) => k.split('/').pop()!),
      ...chunked.map((c) => c.multipart_id),
    ].filter((s) => s.length >= 8);
    expect(sessions.length).toBeGreaterThan(1);
    expect(uploads.some((u) => u.thumbnail_key)).toBe(true);
    expect(bodies.length).toBeGreaterThan(1000);
    const leaks = secrets.filter((secret) => bodies.some((b) => b.includes(secret)));
    expect(leaks).toEqual([]);
  });
});
