/**
 * Ends a request whose client stops sending its body (Node's requestTimeout, which Fastify sets
 * to 0, would bound the whole request, and cut slow uploads). Idle time only: the request is
 * ended when none of its body has arrived for BODY_IDLE_TIMEOUT_MS while the server was asking
 * for more, so a slow but steady upload, or one held back by a slow store, goes on for as long
 * as it takes. Only requests that carry a body are watched, until it has all arrived: a
 * download whose client stops reading is never cut.
 *
 * The body's reader (the multipart reader, Fastify's JSON and form parsers) gets a
 * RequestTimeoutError: the request ends through its own error path (a simple upload's
 * temporary file removed), answered 408 with `Connection: close`, and its connection closes.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RequestTimeoutError } from '../errors.ts';

function carriesBody(raw: IncomingMessage): boolean {
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function registerBodyIdleTimeout(app: FastifyInstance, ms: number): void {
  // Checked a few times per timeout: a silence is found at most a quarter late.
  const every = Math.max(10, Math.floor(ms / 4));
  app.addHook('onRequest', (request, reply, done) => {
    watch(request, reply);
    done();
  });
  const watch = (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.raw;
    const socket = raw.socket as IncomingMessage['socket'] | null;
    // Requests injected in tests have no real socket to count bytes on.
    if (!carriesBody(raw) || typeof socket?.bytesRead !== 'number') return;
    let seen = socket.bytesRead;
    let lastHeard = Date.now();
    const timer = setInterval(() => {
      if (raw.complete || raw.readableEnded || raw.destroyed) return stop();
      const now = Date.now();
      // Bytes arrived, or nobody is reading (the route has not started, or the store is
      // slower than the client): not the client's silence.
      if (socket.bytesRead !== seen || raw.readableFlowing !== true) {
        seen = socket.bytesRead;
        lastHeard = now;
        return;
      }
      if (now - lastHeard < ms) return;
      stop();
      cut();
    }, every);
    timer.unref();
    const stop = () => clearInterval(timer);
    raw.once('end', stop);
    reply.raw.once('close', stop);

    const cut = () => {
      // The rest of the body will not be read: the connection cannot carry another request.
      if (!reply.raw.headersSent) reply.header('connection', 'close');
      const err = new RequestTimeoutError(`No part of the request body arrived for ${ms / 1000} s`);
      // A reader listens for errors on the request; without one, nothing is left to answer.
      if (raw.listenerCount('error') > 0) raw.emit('error', err);
      else raw.destroy(err);
    };
  };
}
