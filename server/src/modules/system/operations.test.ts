/**
 * What an operator's tools call: liveness, readiness (503 naming the part that failed), the
 * Prometheus metrics behind METRICS_TOKEN, and request ids (taken from X-Request-Id, echoed,
 * and on every log line about the request).
 */
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { uploadFile } from '../../../test/uploads.ts';
import { signIn } from '../../../test/users.ts';
import type { Storage } from '../../storage/storage.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';

/** A stream that keeps the JSON log lines written to it. */
function logLines() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { lines, stream };
}

/** Local storage whose reads fail while `broken.on` is true. */
function breakable() {
  const broken = { on: false };
  const gone = () => Promise.reject(new Error('disk gone'));
  const wrap = (storage: Storage): Storage => ({
    ...storage,
    check: () => (broken.on ? gone() : storage.check()),
    size: (key) => (broken.on ? gone() : storage.size(key)),
    get: (key, range) => (broken.on ? gone() : storage.get(key, range)),
  });
  return { broken, wrap };
}

describe('GET /api/health and /api/health/ready', () => {
  let ctx: TestContext;
  const storage = breakable();
  const log = logLines();
  beforeAll(async () => {
    ctx = await createTestContext(
      { LOG_LEVEL: 'warn' },
      {},
      { wrapStorage: storage.wrap, logStream: log.stream },
    );
  });
  afterAll(() => ctx.close());

  it('answers liveness to anyone, never cached', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers ready when the database and the store answer', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', storage: 'ok' });
  });

  it('answers 503 naming the store when it fails, and logs why with the request id', async () => {
    storage.broken.on = true;
    try {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/health/ready',
        headers: { 'x-request-id': 'probe-7' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        error: 'not_ready',
        message: 'Not ready: storage not reachable',
      });
      // Liveness does not look at the store.
      expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      storage.broken.on = false;
    }
    // Why, on a line that carries the probe's request id.
    const line = log.lines.find((l) => l.msg === 'not ready');
    expect(line).toMatchObject({
      reqId: 'probe-7',
      failed: [{ part: 'storage', reason: 'disk gone' }],
    });
  });

  it('logs a thumbnail the store could not give with its upload id, and retries it', async () => {
    const { auth } = await signIn(ctx);
    const png = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#08f' },
    })
      .png()
      .toBuffer();
    storage.broken.on = true;
    try {
      const up = (await uploadFile(ctx, auth, { filename: 'a.png', data: png })).json().upload as {
        id: string;
        shortCode: string;
      };
      await ctx.background.drain();
      const res = await ctx.app.inject({ method: 'GET', url: `/thumb/${up.shortCode}` });
      expect(res.statusCode).toBe(404);
      expect(
        log.lines.find((l) => l.msg === 'background task failed; it will be retried'),
      ).toMatchObject({ task: 'upload.thumbnail', uploadId: up.id, err: { message: 'disk gone' } });
    } finally {
      storage.broken.on = false;
    }
  });

  it('answers 503 naming the store when its files directory is gone (a volume not mounted)', async () => {
    const other = await createTestContext();
    try {
      const files = path.join(other.dataDir, 'files');
      expect((await other.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(
        200,
      );
      await fsp.rm(files, { recursive: true });
      const ready = await other.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        error: 'not_ready',
        message: 'Not ready: storage not reachable',
      });
    } finally {
      await other.close();
    }
  });

  it('answers 503 naming the database, and liveness still 200, when the database is gone', async () => {
    const other = await createTestContext({}, {}, { wrapStorage: storage.wrap });
    try {
      await other.handle.db.destroy();
      const ready = await other.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        error: 'not_ready',
        message: 'Not ready: database not reachable',
      });
      const live = await other.app.inject({ method: 'GET', url: '/api/health' });
      expect(live.statusCode).toBe(200);
      // Credentials sent along (a browser's, a monitor's) are not looked up: no database call.
      for (const headers of [{ authorization: 'Bearer some-session' }, { 'x-api-token': 'tok' }]) {
        const res = await other.app.inject({ method: 'GET', url: '/api/health', headers });
        expect(res.statusCode).toBe(200);
      }
    } finally {
      await other.app.close();
      await other.database.drop();
    }
  });
});

describe('X-Request-Id', () => {
  let ctx: TestContext;
  const log = logLines();
  beforeAll(async () => {
    ctx = await createTestContext({ LOG_LEVEL: 'info' }, {}, { logStream: log.stream });
  });
  afterAll(() => ctx.close());

  it('takes a plain id from the client and echoes it; makes one otherwise', async () => {
    const given = await ctx.app.inject({
      method: 'GET',
      url: '/api/config',
      headers: { 'x-request-id': 'edge-1f3a:42' },
    });
    expect(given.headers['x-request-id']).toBe('edge-1f3a:42');
    const made = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const lines = log.lines.filter((l) => l.reqId === 'edge-1f3a:42');
    expect(lines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('replaces an id too long or with characters a log or header could trip on', async () => {
    for (const bad of ['a'.repeat(129), 'two words', 'quote"d', 'tab\there']) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/config',
        headers: { 'x-request-id': bad },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('is on error answers too', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/uploads',
      headers: { 'x-request-id': 'denied-1' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-request-id']).toBe('denied-1');
    // Refused by the router itself, before any step ran: a URL that does not decode.
    const undecodable = await ctx.app.inject({
      method: 'GET',
      url: '/api/uploads/%E0%A4%A',
      headers: { 'x-request-id': 'bad-url-2' },
    });
    expect(undecodable.statusCode).toBe(400);
    expect(undecodable.headers['x-request-id']).toBe('bad-url-2');
  });
});

describe('GET /metrics', () => {
  it('is a 404 while METRICS_TOKEN is not set', async () => {
    const ctx = await createTestContext();
    try {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await ctx.close();
    }
  });

  it('answers while the database is gone: the token is no session to look up', async () => {
    const other = await createTestContext({ METRICS_TOKEN });
    try {
      await other.handle.db.destroy();
      const res = await other.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('process_resident_memory_bytes');
      expect(res.body).toContain('upshot_chunked_sessions_open');
    } finally {
      await other.app.close();
      await other.database.drop();
    }
  });

  describe('with METRICS_TOKEN', () => {
    let ctx: TestContext;
    let base: string;
    beforeAll(async () => {
      ctx = await createTestContext({ METRICS_TOKEN });
      await ctx.app.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    });
    afterAll(() => ctx.close());

    const scrape = async (token = METRICS_TOKEN) =>
      fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });

    /** The value of one sample (name with its labels as written), or undefined. */
    function sample(text: string, series: string): number | undefined {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    }

    it('needs the bearer token', async () => {
      const none = await fetch(`${base}/metrics`);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toContain('Bearer');
      expect((await scrape('wrong-token-0123456789')).status).toBe(401);
      const ok = await scrape();
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toContain('text/plain');
    });

    it('counts requests by route pattern and status, and bytes uploaded and served', async () => {
      const { auth } = await signIn(ctx);
      const bytes = crypto.randomBytes(10_000);
      const form = new FormData();
      form.append('isPublic', 'true');
      form.append('file', new Blob([bytes]), 'a.bin');
      const before = await (await scrape()).text();
      const uploaded = await fetch(`${base}/api/upload`, {
        method: 'POST',
        headers: auth,
        body: form,
      });
      expect(uploaded.status).toBe(201);
      const { url } = (await uploaded.json()) as { url: string };
      const slug = new URL(url).pathname;
      for (let i = 0; i < 3; i++) {
        const got = await fetch(`${base}${slug}`);
        expect((await got.arrayBuffer()).byteLength).toBe(bytes.length);
      }
      expect((await fetch(`${base}/nosuchfile`)).status).toBe(404);
      await expect
        .poll(async () => {
          const text = await (await scrape()).text();
          return sample(
            text,
            'upshot_http_requests_total{method="GET",route="/:slug",status="200"}',
          );
        })
        .toBe(3);
      const text = await (await scrape()).text();
      expect(
        sample(text, 'upshot_http_requests_total{method="GET",route="/:slug",status="404"}'),
      ).toBe(1);
      expect(
        sample(text, 'upshot_http_requests_total{method="POST",route="/api/upload",status="201"}'),
      ).toBe(1);
      // The route's pattern, never the URL: no label holds a slug.
      expect(text).not.toContain(slug);
      const served = sample(text, 'upshot_served_bytes_total') ?? 0;
      expect(served - (sample(before, 'upshot_served_bytes_total') ?? 0)).toBe(3 * bytes.length);
      const received = sample(text, 'upshot_uploaded_bytes_total') ?? 0;
      // The request body: the file and its form around it.
      expect(received).toBeGreaterThan(bytes.length);
      expect(received).toBeLessThan(bytes.length + 1024);
      expect(sample(text, 'upshot_uploads_in_flight')).toBe(0);
      expect(
        sample(
          text,
          'upshot_http_request_duration_seconds_count{method="GET",route="/:slug",status="200"}',
        ),
      ).toBe(3);
    });

    it('reports chunked sessions in flight, the process, and no pool on SQLite', async () => {
      const { auth } = await signIn(ctx);
      const init = await fetch(`${base}/api/chunked-upload/init`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'big.bin', totalSize: 200 * 1024 * 1024, totalChunks: 4 }),
      });
      expect(init.status).toBe(201);
      const text = await (await scrape()).text();
      expect(sample(text, 'upshot_chunked_sessions_open')).toBe(1);
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(text).toContain('# TYPE upshot_job_runs_total counter');
      expect(text).not.toContain('upshot_db_pool_connections{');
    });
  });
});
