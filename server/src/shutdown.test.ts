/**
 * Graceful shutdown of the real process (src/main.ts): on SIGTERM it stops accepting, lets a
 * download in flight finish, closes idle keep-alive connections at once and exits 0; answers in
 * flight and requests still arriving on open connections are answered with "Connection: close"
 * (not a 503); a request still running at SHUTDOWN_TIMEOUT_MS loses its connection and the
 * process exits anyway.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testEngine } from '../test/context.ts';
import { call, startInstance, type Instance } from '../test/instances.ts';
import { freePort, tempDir } from '../test/live-server.ts';

// The process's own behaviour: once is enough, on the embedded default.
const onSqlite = testEngine === 'sqlite';
const SIZE = 24 * 1024 * 1024;

let instance: Instance | null = null;
afterEach(async () => {
  await instance?.kill();
  instance = null;
});

async function startWithUpload(shutdownTimeoutMs: number) {
  const server = startInstance('shutdown', await freePort(), {
    DATA_DIR: tempDir('upshot-shutdown-'),
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'correct horse battery',
    SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
    LOG_LEVEL: 'info',
  });
  instance = server;
  await server.waitForOutput('Upshot is listening', 30_000);
  const login = await call<{ token: string }>(server.url, 'POST', '/api/auth/login', {
    body: { email: 'admin@example.com', password: 'correct horse battery' },
  });
  expect(login.status, login.text).toBe(200);
  const bytes = crypto.randomBytes(SIZE);
  const form = new FormData();
  form.append('isPublic', 'true');
  form.append('file', new Blob([bytes]), 'big.bin');
  const res = await fetch(`${server.url}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${login.json.token}` },
    body: form,
  });
  const upload = (await res.json()) as { url: string };
  expect(res.status).toBe(201);
  return {
    server,
    url: upload.url,
    sha: crypto.createHash('sha256').update(bytes).digest('hex'),
    token: login.json.token,
  };
}

/** A GET over a keep-alive connection, paused as soon as its head arrives. */
function pausedDownload(url: string, agent: http.Agent) {
  return new Promise<{
    res: http.IncomingMessage;
    /** Resumes reading; settles with the bytes' hash and count when the body ends or breaks. */
    finish: () => Promise<{ sha: string; received: number; complete: boolean }>;
  }>((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.pause();
        resolve({
          res,
          finish: () =>
            new Promise((done) => {
              const hash = crypto.createHash('sha256');
              let received = 0;
              res.on('data', (d: Buffer) => {
                hash.update(d);
                received += d.length;
              });
              let ended = false;
              const end = (complete: boolean) => () => {
                if (ended) return;
                ended = true;
                done({ sha: hash.digest('hex'), received, complete });
              };
              res.once('end', end(true));
              res.once('aborted', end(false));
              res.once('error', end(false));
              res.resume();
            }),
        });
      })
      .on('error', reject);
  });
}

/** Resolves once a new connection to the instance's port is refused (it stopped listening). */
async function untilRefused(url: string, timeoutMs: number): Promise<void> {
  const { hostname, port } = new URL(url);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const code = await new Promise<string | null>((resolve) => {
      const socket = net.connect(Number(port), hostname);
      socket.once('connect', () => {
        socket.destroy();
        resolve(null);
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    if (code === 'ECONNREFUSED') return;
    if (Date.now() > deadline) throw new Error(`still accepting connections (${code})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!onSqlite)('SIGTERM', () => {
  it('lets a download in flight finish, then exits 0 without waiting on idle connections', async () => {
    const { server, url, sha } = await startWithUpload(8000);
    const agent = new http.Agent({ keepAlive: true });
    // An idle keep-alive connection, open before the signal.
    expect((await call(server.url, 'GET', '/api/health')).status).toBe(200);
    const download = await pausedDownload(url, agent);
    expect(download.res.statusCode).toBe(200);

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await server.waitForOutput('"shutting down"', 5000);
    await untilRefused(server.url, 5000);

    const got = await download.finish();
    expect(got).toEqual({ sha, received: SIZE, complete: true });
    const run = await server.done;
    const tookMs = Date.now() - signalled;
    expect(run.code, server.describe()).toBe(0);
    // It ended because nothing was left, not because the timeout cut something off.
    expect(run.stdout).not.toContain('cut off');
    expect(run.stdout).toContain('"shut down"');
    expect(tookMs).toBeLessThan(8000);
    agent.destroy();
  });

  it('answers a request that arrives on a busy keep-alive connection while draining, then closes it', async () => {
    // Behind a proxy that keeps connections to the instances open, the proxy's next request
    // can reach an instance after SIGTERM on a connection that was busy when it arrived. It is
    // answered (the proxy does not send a request on elsewhere once sent), with Connection:
    // close, instead of a 503 the client would see.
    const { server, url, sha } = await startWithUpload(8000);
    const { hostname, port, pathname } = new URL(url);
    const socket = net.connect(Number(port), hostname);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve).once('error', reject);
    });
    const request = (path: string) =>
      `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`;
    // The download's bytes wait unread in the socket: the connection is busy at the signal.
    socket.pause();
    socket.write(request(pathname));
    const chunks: Buffer[] = [];
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('data', (d: Buffer) => chunks.push(d));
    await vi.waitFor(() => expect(socket.bytesRead).toBeGreaterThan(0), { timeout: 5000 });

    server.child.kill('SIGTERM');
    await server.waitForOutput('"shutting down"', 5000);
    socket.write(request('/api/health'));
    socket.resume();
    await closed;

    const all = Buffer.concat(chunks);
    const firstHead = all.subarray(0, all.indexOf('\r\n\r\n') + 4).toString('latin1');
    expect(firstHead).toMatch(/^HTTP\/1\.1 200 /);
    const bodyStart = firstHead.length;
    const body = all.subarray(bodyStart, bodyStart + SIZE);
    expect(crypto.createHash('sha256').update(body).digest('hex')).toBe(sha);
    const second = all.subarray(bodyStart + SIZE).toString('latin1');
    expect(second).toMatch(/^HTTP\/1\.1 200 /);
    expect(second.toLowerCase()).toContain('connection: close');
    expect(second).toContain('"status":"ok"');

    const run = await server.done;
    expect(run.code, server.describe()).toBe(0);
    expect(run.stdout).not.toContain('cut off');
  });

  it('tells the client to close a connection whose request was in flight at the signal', async () => {
    // A proxy that reused such a connection after the answer would race the instance closing
    // it; told "Connection: close", it sends its next request to another instance.
    const { server, token } = await startWithUpload(8000);
    const boundary = 'upshot-shutdown-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="late.txt"\r\n` +
        'Content-Type: text/plain\r\n\r\n',
    );
    const tail = Buffer.from(`sent after the signal\r\n--${boundary}--\r\n`);
    const agent = new http.Agent({ keepAlive: true });
    const req = http.request(`${server.url}/api/upload`, {
      method: 'POST',
      agent,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + tail.length),
        // "100 Continue" comes once the server has read the request's head and made its answer.
        expect: '100-continue',
      },
    });
    const answer = new Promise<{ status?: number; connection?: string; body: string }>(
      (resolve, reject) => {
        req.on('response', (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () =>
            resolve({ status: res.statusCode, connection: res.headers.connection, body }),
          );
        });
        req.on('error', reject);
      },
    );
    await new Promise<void>((resolve) => req.once('continue', () => resolve()));
    req.write(head);

    server.child.kill('SIGTERM');
    await server.waitForOutput('"shutting down"', 5000);
    req.end(tail);

    const got = await answer;
    expect(got.status, got.body).toBe(201);
    expect(got.connection).toBe('close');
    const run = await server.done;
    expect(run.code, server.describe()).toBe(0);
    expect(run.stdout).not.toContain('cut off');
    agent.destroy();
  });

  it('cuts off a request still running at SHUTDOWN_TIMEOUT_MS and exits 0', async () => {
    const { server, url } = await startWithUpload(1000);
    const agent = new http.Agent({ keepAlive: true });
    const download = await pausedDownload(url, agent);
    expect(download.res.statusCode).toBe(200);

    server.child.kill('SIGTERM');
    const run = await server.done;
    expect(run.code, server.describe()).toBe(0);
    expect(run.stdout).toContain('cut off');
    const got = await download.finish();
    expect(got.complete).toBe(false);
    expect(got.received).toBeLessThan(SIZE);
    agent.destroy();
  });
});
