/**
 * The HTTP server's connections while it shuts down (main.ts): closing idle keep-alive
 * connections without cutting an answer that is still being sent, and telling clients (proxies)
 * which connections are about to close.
 *
 * Node's own closeIdleConnections(), which server.close() runs too, takes a connection for idle
 * once its answer has ended (`res.end()` called), even while the answer's last bytes still wait
 * to be sent to a client that reads slowly: destroying the socket then cuts the download short.
 * drainable() replaces it on the server with one that leaves a connection alone until its answer
 * has been handed to the kernel whole. Node keeps a connection's answer in progress, or queued
 * behind it, as the socket's `_httpMessage` until then (Node's own sweep reads it too).
 */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

export type Drain = {
  /**
   * Closes every connection with no answer in progress or unsent: those between requests (a
   * request whose head is still arriving on one is lost, as with any close of a keep-alive
   * connection). Also what the server's closeIdleConnections() does from now on.
   */
  closeIdle(): void;
  /**
   * For draining: an answer not yet begun will say "Connection: close", and the connection of
   * one already under way closes as soon as its answer has been sent, so a proxy does not send
   * its next request on a connection the server is closing. (Requests pipelined behind it are
   * not answered; HTTP/1.1 clients send such requests again.)
   */
  closeAfterAnswers(): void;
};

export function drainable(server: Server): Drain {
  const sockets = new Set<HttpSocket>();
  server.on('connection', (socket: HttpSocket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const closeIfIdle = (socket: HttpSocket) => {
    if (!socket._httpMessage) socket.destroy();
  };
  const closeIdle = () => {
    for (const socket of sockets) closeIfIdle(socket);
  };
  server.closeIdleConnections = closeIdle;

  return {
    closeIdle,
    closeAfterAnswers() {
      for (const socket of sockets) {
        const res = socket._httpMessage;
        if (!res) continue;
        if (!res.headersSent) res.setHeader('connection', 'close');
        // 'finish': the answer's last bytes are with the kernel, and Node has let go of it.
        else res.once('finish', () => closeIfIdle(socket));
      }
    },
  };
}
