import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

/** What the proxy does with the bytes of every connection, the open ones and the next ones. */
export type LinkState = { kind: 'forward' } | { kind: 'cut' } | { kind: 'delay'; ms: number };

/**
 * A TCP proxy in front of one server, for specs of a link that fails without a word: `cut()` keeps every
 * connection open and accepts new ones but delivers nothing either way (a partition, a black hole),
 * `delay(ms)` delivers every chunk `ms` later (a slow link), `heal()` delivers again. What was sent while
 * cut is held and delivered at the heal, closes included, as TCP retransmits once a partition heals: a
 * protocol that matches answers to questions by their order (Redis) stays in step.
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

/** One direction of one connection: what it delivers now, or holds while the link is cut. */
interface Direction {
  to: Socket;
  held: Array<Buffer | 'end'>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let state: LinkState = { kind: 'forward' };
  const sockets = new Set<Socket>();
  const directions = new Set<Direction>();
  const deliver = (direction: Direction, item: Buffer | 'end') => {
    const { to } = direction;
    if (item !== 'end') {
      if (to.writable) to.write(item);
      return;
    }
    to.destroy();
    directions.delete(direction);
  };
  const send = (direction: Direction, item: Buffer | 'end') => {
    const now = state;
    if (now.kind === 'cut' || direction.held.length > 0) direction.held.push(item);
    else if (now.kind === 'forward') deliver(direction, item);
    // Timers of one duration fire in the order they were set, so a delayed stream keeps its order.
    else setTimeout(() => deliver(direction, item), now.ms);
  };
  const relay = (from: Socket, to: Socket) => {
    const direction: Direction = { to, held: [] };
    directions.add(direction);
    from.on('data', (chunk) => send(direction, chunk));
    from.on('close', () => {
      send(direction, 'end');
      sockets.delete(from);
    });
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
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
      for (const direction of directions) {
        for (const item of direction.held.splice(0)) deliver(direction, item);
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
