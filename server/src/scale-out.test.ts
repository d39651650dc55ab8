/**
 * Two real server processes over one PostgreSQL database and one S3 bucket, as a scaled-out
 * install runs them: they start together on an empty database, and a client moves between
 * them (signed in on one, calling the other; a chunked upload's chunks alternating; a delete on
 * one seen by the other at once, and answered without waiting for the other, even frozen; one
 * killed in the middle of a chunk and the upload finished on the other). PostgreSQL only:
 * SQLite is one file on one machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { CHUNK_SIZE } from '@upshot/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { MIGRATIONS } from './db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../test/context.ts';
import {
  call,
  onPostgres,
  postChunk,
  seededBytes,
  seededSha256,
  startInstance,
  type Instance,
} from '../test/instances.ts';
import { freePort, hashDownload } from '../test/live-server.ts';
import { startS3, type TestS3 } from '../test/s3.ts';
import { multipart } from '../test/uploads.ts';

const ADMIN = { email: 'ops@example.com', password: 'scale-out-password-1', username: 'ops' };
const SECRET_KEY = 'scale-out-secret-key-0123456789abcdefghijklmnop';
const METRICS_TOKEN = 'scale-out-metrics-token-0123';
const LISTENING = 'Upshot is listening';
const FIRST_ADMIN = 'First admin account created';
const CASE_START =
  'starting together on an empty database, migrates once and makes one first admin';

let s3: TestS3 | undefined;
let bucket: string;
let database: TestDatabase | undefined;
let handle: DatabaseHandle | undefined;
const dirs: string[] = [];
const instances: Instance[] = [];
let a: Instance;
let b: Instance;
/** Why an instance did not start (with its output); empty when both did. */
let startup: string[] = [];

/** Every instance's output, for a failure message. */
const outputs = () => instances.map((i) => i.describe()).join('\n');

async function envFor(): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-scale-'));
  dirs.push(dataDir);
  if (!s3 || !database?.url) throw new Error('s3 and database first');
  return {
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    SECRET_KEY,
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: s3.region,
    S3_BUCKET: bucket,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_USERNAME: ADMIN.username,
    LOG_LEVEL: 'warn',
    FFMPEG_PATH: '',
    METRICS_TOKEN,
  };
}

describe.runIf(onPostgres)('two instances over one database and one bucket', () => {
  beforeAll(async () => {
    s3 = await startS3();
    bucket = await s3.createBucket();
    database = await createTestDatabase();
    handle = openDatabase({ databaseUrl: database.url, dataDir: os.tmpdir() });
    const [envA, envB, portA, portB] = await Promise.all([
      envFor(),
      envFor(),
      freePort(),
      freePort(),
    ]);
    // Started in the same turn: both find an empty database and race to migrate and bootstrap.
    a = startInstance('A', portA, envA);
    b = startInstance('B', portB, envB);
    instances.push(a, b);
    // Case 1 reports how the start went; the other cases need both up.
    const started = await Promise.allSettled(
      instances.map((i) => i.waitForOutput(LISTENING, 60_000)),
    );
    startup = started.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.kill('SIGKILL')));
    await handle?.db.destroy();
    await database?.drop();
    await s3?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const db = () => {
    if (!handle) throw new Error('no database');
    return handle.db;
  };

  beforeEach(({ task }) => {
    if (startup.length > 0 && task.name !== CASE_START) {
      throw new Error(`the instances did not both start:\n${startup.join('\n')}`);
    }
  });

  it(CASE_START, async () => {
    expect(startup, 'both instances print that they listen').toEqual([]);

    // Kysely's own table: one row per migration applied (its name is the primary key).
    const applied = await sql<{
      name: string;
    }>`select name from kysely_migration order by name`.execute(db());
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS).sort());

    const users = await db().selectFrom('users').select(['email', 'role', 'username']).execute();
    expect(users).toEqual([{ email: ADMIN.email, role: 'admin', username: ADMIN.username }]);
    // Each prints the banner only when it made the admin itself: exactly one did.
    const banners = instances.filter((i) => i.output().stdout.includes(FIRST_ADMIN));
    expect(
      banners.map((i) => i.name),
      outputs(),
    ).toHaveLength(1);

    // Nothing went wrong on the way: no error or fatal line (stderr holds at most Node's and the
    // AWS SDK's warnings).
    for (const i of instances) {
      const { stdout, stderr } = i.output();
      expect(stderr, i.describe()).not.toMatch(/error|fail|fatal/i);
      expect(stdout, i.describe()).not.toMatch(/"level":(50|60)/);
    }
  });

  it('signed in on A, the session and the API token work on B, and changes show on both', async () => {
    const login = await call<{ token: string; user: { id: string } }>(
      a.url,
      'POST',
      '/api/auth/login',
      { body: { email: ADMIN.email, password: ADMIN.password } },
    );
    expect(login.status, login.text).toBe(200);
    const session = { authorization: `Bearer ${login.json.token}` };
    const id = login.json.user.id;

    const me = await call(b.url, 'GET', '/api/auth/me', { headers: session });
    expect(me.status, me.text).toBe(200);
    expect(me.json).toMatchObject({ id, email: ADMIN.email, role: 'admin' });

    const user = await call<{ apiToken: string }>(a.url, 'GET', `/api/users/${id}`, {
      headers: session,
    });
    expect(user.status, user.text).toBe(200);
    const oldToken = user.json.apiToken;
    const byToken = await call(b.url, 'GET', '/api/auth/me', {
      headers: { 'x-api-token': oldToken },
    });
    expect(byToken.status, byToken.text).toBe(200);
    expect(byToken.json).toMatchObject({ id });

    // A new token made on B: the old one is refused on A at once, the new one works there.
    const regenerated = await call<{ apiToken: string }>(
      b.url,
      'POST',
      `/api/users/${id}/api-token`,
      {
        headers: session,
      },
    );
    expect(regenerated.status, regenerated.text).toBe(200);
    const newToken = regenerated.json.apiToken;
    expect(newToken).not.toBe(oldToken);
    expect(
      (await call(a.url, 'GET', '/api/auth/me', { headers: { 'x-api-token': oldToken } })).status,
    ).toBe(401);
    expect(
      (await call(a.url, 'GET', '/api/auth/me', { headers: { 'x-api-token': newToken } })).status,
    ).toBe(200);

    // Signed out on B: the session is gone on A too.
    expect((await call(b.url, 'POST', '/api/auth/logout', { headers: session })).status).toBe(204);
    expect((await call(a.url, 'GET', '/api/auth/me', { headers: session })).status).toBe(401);
  });

  /** A fresh session of the admin (signed in on `on`) and their API token. */
  async function account(on: Instance) {
    const login = await call<{ token: string; user: { id: string } }>(
      on.url,
      'POST',
      '/api/auth/login',
      { body: { email: ADMIN.email, password: ADMIN.password } },
    );
    expect(login.status, login.text).toBe(200);
    const session = { authorization: `Bearer ${login.json.token}` };
    const user = await call<{ apiToken: string }>(
      on.url,
      'GET',
      `/api/users/${login.json.user.id}`,
      {
        headers: session,
      },
    );
    expect(user.status, user.text).toBe(200);
    return { session, token: { 'x-api-token': user.json.apiToken } };
  }

  /** Serves the link on `on` with this body. */
  async function served(on: Instance, linkPath: string, body: string) {
    const res = await fetch(new URL(linkPath, on.url));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(body);
  }

  /** A public text file uploaded on `on`: its id and its link's path. */
  async function uploadText(on: Instance, session: Record<string, string>, text: string) {
    const body = multipart({ isPublic: 'true' }, { filename: 'note.txt', data: Buffer.from(text) });
    const uploaded = await fetch(`${on.url}/api/upload`, {
      method: 'POST',
      headers: { ...session, ...body.headers },
      body: body.payload,
    });
    const created = (await uploaded.json()) as { url: string; upload: { id: string } };
    expect(uploaded.status, JSON.stringify(created)).toBe(201);
    return { id: created.upload.id, linkPath: new URL(created.url).pathname };
  }

  async function initChunked(on: Instance, auth: Record<string, string>, size: number) {
    const init = await call<{ uploadId: string; chunkSize: number }>(
      on.url,
      'POST',
      '/api/chunked-upload/init',
      {
        headers: auth,
        body: {
          filename: 'big.bin',
          mimeType: 'application/octet-stream',
          totalSize: size,
          totalChunks: Math.ceil(size / CHUNK_SIZE),
          isPublic: true,
        },
      },
    );
    expect(init.status, init.text).toBe(201);
    expect(init.json.chunkSize).toBe(CHUNK_SIZE);
    return init.json.uploadId;
  }

  /** Chunk `index` of the seeded file of `size` bytes, as a client sends it. */
  function chunkBytes(seed: string, size: number, index: number) {
    const offset = index * CHUNK_SIZE;
    const length = Math.min(CHUNK_SIZE, size - offset);
    return { data: seededBytes(seed, offset, length), length };
  }

  async function sendChunk(
    on: Instance,
    auth: Record<string, string>,
    uploadId: string,
    seed: string,
    size: number,
    index: number,
  ) {
    const { data, length } = chunkBytes(seed, size, index);
    const res = await postChunk(on.url, auth, uploadId, index, data, length);
    expect(res.status, `chunk ${index} on ${on.name}: ${res.text}`).toBe(204);
  }

  it('takes a chunked upload whose chunks alternate between A and B, completed on B; A serves it byte for byte', async () => {
    const { token } = await account(a);
    const seed = 'alternating';
    const size = 2 * CHUNK_SIZE + 5_000_123; // three chunks, the last one short
    const expected = await seededSha256(seed, size);
    const uploadId = await initChunked(a, token, size);

    await sendChunk(a, token, uploadId, seed, size, 0);
    await sendChunk(b, token, uploadId, seed, size, 1);
    await sendChunk(a, token, uploadId, seed, size, 2);
    const status = await call<{ receivedChunks: number[] }>(
      b.url,
      'GET',
      `/api/chunked-upload/${uploadId}`,
      {
        headers: token,
      },
    );
    expect(status.json.receivedChunks).toEqual([0, 1, 2]);

    const done = await call<{ url: string; upload: { id: string; size: number } }>(
      b.url,
      'POST',
      '/api/chunked-upload/complete',
      { headers: token, body: { uploadId } },
    );
    expect(done.status, done.text).toBe(201);
    expect(done.json.upload.size).toBe(size);

    const link = new URL(new URL(done.json.url).pathname, a.url).toString();
    const download = await hashDownload(link);
    expect(download).toEqual({ status: 200, sha256: expected, size });
  }, 90_000);

  it('counts views exactly across A and B: maxViews 3, twenty downloads at once, three get it', async () => {
    const { session } = await account(a);
    const body = multipart(
      { isPublic: 'true', maxViews: '3', password: 'shared secret' },
      { filename: 'limited.txt', data: Buffer.from('three only\n') },
    );
    const uploaded = await fetch(`${a.url}/api/upload`, {
      method: 'POST',
      headers: { ...session, ...body.headers },
      body: body.payload,
    });
    const created = (await uploaded.json()) as { url: string; upload: { id: string } };
    expect(uploaded.status, JSON.stringify(created)).toBe(201);
    const linkPath = new URL(created.url).pathname;

    // The password unlocked on A opens the link on B (the cookie is the database's truth).
    const unlocked = await fetch(new URL(linkPath, a.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'password=shared+secret',
      redirect: 'manual',
    });
    expect(unlocked.status).toBe(303);
    const cookie = unlocked.headers.get('set-cookie')!.split(';')[0]!;
    const onB = await fetch(new URL(linkPath, b.url), { method: 'HEAD', headers: { cookie } });
    expect(onB.status).toBe(200);

    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await fetch(new URL(linkPath, (i % 2 ? a : b).url), {
          headers: { 'x-upshot-password': 'shared secret' },
        });
        return { status: res.status, text: await res.text() };
      }),
    );
    expect(answers.filter((r) => r.status === 200).map((r) => r.text)).toEqual([
      'three only\n',
      'three only\n',
      'three only\n',
    ]);
    expect(answers.filter((r) => r.status === 410)).toHaveLength(17);
    const row = await db()
      .selectFrom('uploads')
      .select(['views_used', 'max_views'])
      .where('id', '=', created.upload.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ views_used: 3, max_views: 3 });
  });

  it('a delete on A is a 404 on B at once, for the link and the API', async () => {
    const { session } = await account(b);
    const { id, linkPath } = await uploadText(b, session, 'gone soon\n');
    const row = await db()
      .selectFrom('uploads')
      .select('storage_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

    // Both serve it first, so the 404 after is the delete's doing.
    for (const on of [a, b]) {
      await served(on, linkPath, 'gone soon\n');
      expect((await call(on.url, 'GET', `/api/uploads/${id}`, { headers: session })).status).toBe(
        200,
      );
    }

    expect((await call(a.url, 'DELETE', `/api/uploads/${id}`, { headers: session })).status).toBe(
      204,
    );

    const link = await fetch(new URL(linkPath, b.url));
    await link.arrayBuffer();
    expect(link.status).toBe(404);
    const api = await call(b.url, 'GET', `/api/uploads/${id}`, { headers: session });
    expect(api.status, api.text).toBe(404);
    // And its bytes leave the bucket.
    await vi.waitFor(
      async () => {
        const head = await s3?.client
          .send(new HeadObjectCommand({ Bucket: bucket, Key: row.storage_key }))
          .then(
            () => 200,
            (err: { $metadata?: { httpStatusCode?: number } }) => err.$metadata?.httpStatusCode,
          );
        expect(head).toBe(404);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it("B frozen (SIGSTOP) after serving a link: A's delete is answered without waiting for B, and B, resumed, answers 404", async () => {
    const { session } = await account(a);
    const { id, linkPath } = await uploadText(a, session, 'frozen soon\n');
    await served(b, linkPath, 'frozen soon\n');
    const pid = b.child.pid!;
    process.kill(pid, 'SIGSTOP');
    let took: number;
    try {
      const started = performance.now();
      const deleted = await call(a.url, 'DELETE', `/api/uploads/${id}`, { headers: session });
      took = performance.now() - started;
      expect(deleted.status, deleted.text).toBe(204);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    // Nothing waits on another instance: a delete costs what it costs on one (milliseconds; the
    // bound is generous for a busy machine, far below a second).
    expect(took).toBeLessThan(1000);
    const res = await fetch(new URL(linkPath, b.url));
    await res.arrayBuffer();
    expect(res.status).toBe(404);
  });

  it('an instance killed in the middle of a chunk: the client sends it again to the other one and finishes there', async () => {
    const { token } = await account(a);
    const seed = 'interrupted';
    const size = CHUNK_SIZE + 3_000_017; // two chunks: a full one, then a short one
    const expected = await seededSha256(seed, size);
    const uploadId = await initChunked(b, token, size);
    const session = await db()
      .selectFrom('chunked_uploads')
      .select('multipart_id')
      .where('id', '=', uploadId)
      .executeTakeFirstOrThrow();

    await sendChunk(a, token, uploadId, seed, size, 1);

    // Chunk 0 to B: 16 MiB go out, then the client holds the rest until B is dead.
    const heldAt = 16 * 1024 * 1024;
    let reachedHold!: () => void;
    const holding = new Promise<void>((resolve) => (reachedHold = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const first = chunkBytes(seed, size, 0);
    async function* heldBytes() {
      let sent = 0;
      for await (const piece of first.data) {
        if (sent >= heldAt) {
          reachedHold();
          await released;
        }
        sent += piece.length;
        yield piece;
      }
    }
    const interrupted = postChunk(b.url, token, uploadId, 0, heldBytes(), first.length).then(
      (res) => ({ answered: res }),
      (err: unknown) => ({ failed: err }),
    );
    await holding;
    // B has claimed the part and is writing it to the bucket: bytes of part 1 are there.
    const partFile = path.join(
      s3?.dir ?? '',
      bucket,
      '._S3rver_uploads',
      session.multipart_id,
      '1',
    );
    await vi.waitFor(
      async () => {
        const part = await db()
          .selectFrom('chunked_upload_parts')
          .select('state')
          .where('upload_id', '=', uploadId)
          .where('chunk_index', '=', 0)
          .executeTakeFirst();
        expect(part?.state).toBe('writing');
        expect(fs.statSync(partFile, { throwIfNoEntry: false })?.size ?? 0).toBeGreaterThan(0);
      },
      { timeout: 20_000, interval: 50 },
    );

    const killed = await b.kill('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    release();
    expect(await interrupted, outputs()).toHaveProperty('failed');

    // The client asks A what is stored, and sends chunk 0 again there. While B's claim on the
    // part still looks alive, A answers 409 "already being received": the client waits that
    // out, as the uploader scripts do.
    const status = await call<{ receivedChunks: number[] }>(
      a.url,
      'GET',
      `/api/chunked-upload/${uploadId}`,
      {
        headers: token,
      },
    );
    expect(status.json.receivedChunks).toEqual([1]);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { data, length } = chunkBytes(seed, size, 0);
      const res = await postChunk(a.url, token, uploadId, 0, data, length);
      if (res.status === 204) break;
      expect(res.status, res.text).toBe(409);
      expect(res.text).toMatch(/already being received/);
      expect(Date.now(), `chunk 0 still refused on A: ${res.text}`).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }

    const done = await call<{ url: string; upload: { size: number } }>(
      a.url,
      'POST',
      '/api/chunked-upload/complete',
      { headers: token, body: { uploadId } },
    );
    expect(done.status, done.text).toBe(201);
    expect(done.json.upload.size).toBe(size);
    const download = await hashDownload(new URL(new URL(done.json.url).pathname, a.url).toString());
    expect(download).toEqual({ status: 200, sha256: expected, size });
  }, 120_000);
});
