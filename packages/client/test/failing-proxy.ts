import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ForwardedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  receivedAt: number;
  /** What the service answered (status and its Idempotent-Replay header). */
  upstreamStatus: number;
  replayed: string | null;
}

export interface FailingProxy {
  url: string;
  forwarded: ForwardedRequest[];
  close(): Promise<void>;
}

/**
 * A loopback proxy to `target` that forwards every request, but loses the service's answer to the first
 * `failures` of them: it answers 503 with Retry-After instead (a load balancer draining a node), with
 * `drop` closes the connection without an answer (a network error), or with `hang` never answers (a stalled
 * node). Either way the write happened.
 */
export async function startFailingProxy(
  target: string,
  options: { failures: number; retryAfterSeconds?: number; drop?: boolean; hang?: boolean },
): Promise<FailingProxy> {
  const forwarded: ForwardedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const receivedAt = Date.now();
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
      ) as Record<string, string>;
      const upstream = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      const replayed = upstream.headers.get('idempotent-replay');
      forwarded.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        receivedAt,
        upstreamStatus: upstream.status,
        replayed,
      });
      if (forwarded.length <= options.failures && options.drop) {
        req.socket.destroy();
        return;
      }
      if (forwarded.length <= options.failures && options.hang) return;
      if (forwarded.length <= options.failures) {
        res.writeHead(503, { 'retry-after': String(options.retryAfterSeconds ?? 1), 'content-type': 'text/plain' });
        res.end('draining');
        return;
      }
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
