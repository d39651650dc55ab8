/**
 * The HTTP server's connections while it shuts down (main.ts): closing idle keep-alive
 * connections without cutting an answer that is still being sent, and telling clients (proxies)
 * which connections are about to close.
 *
 * Node's own closeIdleConnections(), which server.close() runs too, takes a connection for idle
 * once its answer has ended (`res.end()` called), even while the answer's last bytes still wait
 * to be sent to a client that reads slowly: destroying the socket then cuts the download short.
 * drainable() replaces it on the server with one that leaves a connection alone while any of
 * its answers (one in progress, or queued behind it) has not been handed to the kernel whole
 * ('finish'), or was not given up ('close'); it counts them from the server's own events.
 */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type Drain = {
  /**
   * Closes every connection with no answer in progress or unsent: those between requests (a
   * request whose head is still arriving on one is lost, as with any close of a keep-alive
   * connection). Also what the server's closeIdleConnections() does from now on.
   */
  closeIdle(): void;
  /**
   * For draining: an answer not yet begun will say "Connection: close", and a connection whose
   * answers are under way closes as soon as they have been sent, so a proxy does not send its
   * next request on a connection the server is closing. (Requests pipelined behind it are not
   * answered; HTTP/1.1 clients send such requests again.)
   */
  closeAfterAnswers(): void;
};

export function drainable(server: Server): Drain {
  /** Each connection, with its answers not yet sent whole, oldest first. */
  const connections = new Map<Socket, ServerResponse[]>();
  let draining = false;

  const closeIfIdle = (socket: Socket) => {
    if (connections.get(socket)?.length === 0) socket.destroy();
  };

  server.on('connection', (socket: Socket) => {
    connections.set(socket, []);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (req, res: ServerResponse) => {
    const socket = req.socket;
    const answers = connections.get(socket);
    if (!answers) return;
    answers.push(res);
    if (draining) drainAnswer(res);
    const done = () => {
      const i = answers.indexOf(res);
      if (i >= 0) answers.splice(i, 1);
      if (draining) closeIfIdle(socket);
    };
    // 'finish': its last bytes are with the kernel; 'close': given up (the client left).
    res.once('finish', done);
    res.once('close', done);
  });

  /** An answer not yet begun says "Connection: close"; one under way ends its connection. */
  const drainAnswer = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
  };

  const closeIdle = () => {
    for (const socket of connections.keys()) closeIfIdle(socket);
  };
  server.closeIdleConnections = closeIdle;

  return {
    closeIdle,
    closeAfterAnswers() {
      draining = true;
      for (const answers of connections.values()) for (const res of answers) drainAnswer(res);
    },
  };
}
