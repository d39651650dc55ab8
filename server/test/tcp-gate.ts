/**
 * A TCP proxy in front of a server that can hold every byte in both directions, as a network
 * that stalls does, and let them through again: what an instance sees of a database it cannot
 * reach for a while, though its connections stay open.
 */
import net from 'node:net';

export type TcpGate = {
  port: number;
  /** From now on nothing passes, on open connections or new ones. */
  hold: () => void;
  /** What was held passes, and everything after it. */
  release: () => void;
  close: () => Promise<void>;
};

export async function startTcpGate(target: { host: string; port: number }): Promise<TcpGate> {
  const sockets = new Set<net.Socket>();
  let held = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on('data', (data) => to.write(data));
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
      from.on('error', () => to.destroy());
      if (held) from.pause();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    hold: () => {
      held = true;
      for (const s of sockets) s.pause();
    },
    release: () => {
      held = false;
      for (const s of sockets) s.resume();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
