import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

/** What the proxy does with the bytes of every connection, the open ones and the next ones. */
export type LinkState = { kind: 'forward' } | { kind: 'cut' } | { kind: 'delay'; ms: number };

/**
 * A TCP proxy in front of one server, for specs of a link that fails without a word: `cut()` keeps every
 * connection open and accepts new ones but forwards nothing either way (a partition, a black hole),
 * `delay(ms)` forwards every chunk `ms` later (a slow link), `heal()` forwards again. Bytes sent while cut
 * are dropped, as a partition drops them.
 */
export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  cut(): void;
  delay(ms: number): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let state: LinkState = { kind: 'forward' };
  const sockets = new Set<Socket>();
  const relay = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      const now = state;
      if (now.kind === 'cut') return;
      if (now.kind === 'forward') to.write(chunk);
      // Timers of one duration fire in the order they were set, so a delayed stream keeps its order.
      else setTimeout(() => to.writable && to.write(chunk), now.ms);
    });
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        // A side that closed on its own closes the other, unless the link is cut: nothing reaches it then.
        if (state.kind !== 'cut') (socket === client ? upstream : client).destroy();
      });
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    urlFor(url) {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    cut: () => {
      state = { kind: 'cut' };
    },
    delay: (ms) => {
      state = { kind: 'delay', ms };
    },
    heal: () => {
      state = { kind: 'forward' };
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
