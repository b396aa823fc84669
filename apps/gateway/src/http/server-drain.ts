import { setTimeout as sleep } from 'node:timers/promises';
import type { Server } from 'node:http';

/**
 * How long idle keep-alive sockets stay open once the drain began. A client may send a request on an idle
 * socket in the same moment the drain starts (nothing tells it the socket is about to close; the compose and
 * bare-process runs have no preStop pause): closed at once, that socket resets under the request, and for a
 * POST without an Idempotency-Key the client cannot know whether it landed. A second covers a request
 * already on the wire, and adds at most a second to a stop.
 */
export const IDLE_SOCKET_GRACE_MS = 1_000;
/** How often sockets that fell idle during the drain are closed (those answered before it kept alive). */
const IDLE_SWEEP_MS = 100;

/**
 * The drain of the gateway's HTTP server on SIGTERM. From its start every answer, to a request in flight or
 * newly arrived on a kept-alive socket, carries `Connection: close`, so the client closes that socket itself
 * after reading it. Idle sockets stay open for IDLE_SOCKET_GRACE_MS; then the server stops accepting, closes
 * the sockets that are idle, and keeps closing each one as it falls idle until the last answer went.
 */
export class ServerDrain {
  private draining = false;

  constructor(
    private readonly server: Server,
    private readonly graceMs = IDLE_SOCKET_GRACE_MS,
  ) {
    // Before the app's own listener: an answer it sends at once must carry the header too.
    server.prependListener('request', (_req, res) => {
      if (this.draining) res.setHeader('Connection', 'close');
    });
  }

  /** From now on every answer closes its connection. */
  begin(): void {
    this.draining = true;
  }

  /** Closes the server once the grace has passed and every answer went. */
  async close(): Promise<void> {
    this.begin();
    await sleep(this.graceMs);
    // Node's close() also closes the sockets idle right now; those still answering close after their answer.
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const sweeper = setInterval(() => this.server.closeIdleConnections(), IDLE_SWEEP_MS);
    try {
      await closed;
    } finally {
      clearInterval(sweeper);
    }
  }
}
