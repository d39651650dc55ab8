/**
 * The connections while the server shuts down (drain.ts), on a real HTTP server over loopback
 * and raw sockets: an answer still being sent is never cut by closing idle connections (Node's
 * own sweep, which server.close() runs, cut it), idle connections close, and answers in flight
 * say or do "close".
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { drainable } from './drain.ts';

/** More than loopback's socket buffers hold: the answer waits on a client that does not read. */
const SIZE = 32 * 1024 * 1024;

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

async function serve(handler: http.RequestListener) {
  const server = http.createServer(handler);
  servers.push(server);
  const drain = drainable(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { server, drain, port };
}

/** A raw keep-alive connection: what it received, and when the server closed it. */
async function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) =>
    socket.once('connect', resolve).once('error', reject),
  );
  const chunks: Buffer[] = [];
  socket.on('data', (d: Buffer) => chunks.push(d));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  return {
    socket,
    closed,
    get(path: string) {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n`);
    },
    /** The first answer's head and how many body bytes came after it. */
    answer() {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      return { head: all.subarray(0, end).toString('latin1'), bodyBytes: all.length - end - 4 };
    },
  };
}

describe('draining connections', () => {
  it('never cuts an answer whose last bytes still wait for the client', async () => {
    const body = Buffer.alloc(SIZE, 7);
    const { server, drain, port } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(SIZE) });
      // Ended at once: Node takes the connection for idle from here on.
      res.end(body);
    });
    const client = await connect(port);
    client.socket.pause();
    client.get('/');
    await vi.waitFor(() => expect(client.socket.readableLength).toBeGreaterThan(0));

    drain.closeAfterAnswers();
    const closedServer = new Promise<void>((resolve) => server.close(() => resolve()));
    drain.closeIdle();
    client.socket.resume();
    await client.closed;
    await closedServer;

    expect(client.answer().head).toMatch(/^HTTP\/1\.1 200 /);
    expect(client.answer().bodyBytes).toBe(SIZE);
  });

  it('closes connections between requests, and an answer not yet begun says "close"', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived: () => void = () => undefined;
    const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
    const { server, drain, port } = await serve((req, res) => {
      if (req.url !== '/slow') return res.end('quick');
      arrived();
      void held.then(() => res.end('slow'));
    });
    const idle = await connect(port);
    idle.get('/quick');
    await vi.waitFor(() => expect(idle.answer().bodyBytes).toBe(5));
    const busy = await connect(port);
    busy.get('/slow');
    await slowArrived;

    drain.closeAfterAnswers();
    const closedServer = new Promise<void>((resolve) => server.close(() => resolve()));
    await idle.closed;
    release();
    await busy.closed;
    await closedServer;

    expect(idle.answer().head.toLowerCase()).toContain('connection: keep-alive');
    expect(busy.answer().head.toLowerCase()).toContain('connection: close');
    expect(busy.answer().bodyBytes).toBe(4);
  });
});
