import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { Webhook } from 'standardwebhooks';
import { createClient, WebhookVerificationError, WmsApiError } from '../src/index.js';
import { createClient as createNodeClient } from '../src/node.js';
import { retryDelayMs } from '../src/retrying-fetch.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A loopback server answering its requests from a script, in turn (the last answer repeats). */
async function scriptedServer(answers: { status: number; headers?: Record<string, string>; body?: unknown }[]) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback server that takes requests and never answers them (a stalled node). */
async function silentServer() {
  let received = 0;
  const server = createServer(() => {
    received += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls a condition until it holds (the client's specs use no test harness). */
async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const written = { status: 200, body: { status: 'success', data: { sku: 'A', created: true }, requestId: 'r-1' } };
const item = { sku: 'A', name: 'A', baseUomCode: 'EA' };

describe('client retries', () => {
  it('when a write is rate-limited, it is sent again after Retry-After with the same Idempotency-Key', async () => {
    const server = await scriptedServer([{ status: 429, headers: { 'retry-after': '0' } }, written]);
    try {
      const answer = await createClient({ baseUrl: server.url, apiKey: 'k' }).items.upsert(item);

      expect(answer.data).toEqual({ sku: 'A', created: true });
      expect(server.seen).toHaveLength(2);
      expect(server.seen[1]!.headers['idempotency-key']).toBe(server.seen[0]!.headers['idempotency-key']);
      expect(server.seen[0]!.headers['x-api-key']).toBe('k');
    } finally {
      await server.close();
    }
  });

  it('when the service stays unavailable, the client stops after its retries and throws the last answer', async () => {
    const server = await scriptedServer([
      {
        status: 503,
        headers: { 'retry-after': '0' },
        body: { statusCode: 503, message: 'draining', requestId: 'r-9' },
      },
    ]);
    try {
      const call = createClient({ baseUrl: server.url, apiKey: 'k', retries: 2 }).items.upsert(item);

      await expect(call).rejects.toBeInstanceOf(WmsApiError);
      await expect(call).rejects.toMatchObject({ statusCode: 503, message: 'draining', requestId: 'r-9' });
      expect(server.seen).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('when the caller names an Idempotency-Key it is sent as given, and a GET carries none', async () => {
    const server = await scriptedServer([written]);
    try {
      const client = createClient({ baseUrl: `${server.url}/api/v1/integration/v1/`, apiKey: 'k' });

      await client.items.upsert(item, { idempotencyKey: 'erp-order-42' });
      await client.orders.get('SO-1');

      expect(server.seen.map((request) => [request.method, request.url, request.headers['idempotency-key']])).toEqual([
        ['POST', '/api/v1/integration/v1/items', 'erp-order-42'],
        ['GET', '/api/v1/integration/v1/orders/SO-1', undefined],
      ]);
    } finally {
      await server.close();
    }
  });

  it('when an upload from a Node stream is refused with 503, it is not sent again (a stream is read once)', async () => {
    const server = await scriptedServer([{ status: 503, headers: { 'retry-after': '0' }, body: { message: 'busy' } }]);
    try {
      const upload = createNodeClient({ baseUrl: server.url, apiKey: 'k' }).imports.upload(Readable.from(['{}\n']), {
        entity: 'items',
      });

      await expect(upload).rejects.toMatchObject({ name: 'WmsApiError', statusCode: 503 });
      expect(server.seen).toHaveLength(1);
      expect(server.seen[0]!.headers['content-type']).toBe('application/x-ndjson');
    } finally {
      await server.close();
    }
  });

  it('when an upload from a Blob meets a 503, the file is read again and sent with the same key, gzipped', async () => {
    const accepted = { status: 'accepted', jobId: 'import-1', statusUrl: '/jobs/import-1', requestId: 'r-2' };
    const server = await scriptedServer([
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 202, body: accepted },
    ]);
    try {
      const file = new Blob(['sku,name,baseUomCode\nA,A,EA\n']);
      const upload = await createClient({ baseUrl: server.url, apiKey: 'k' }).imports.upload(file, {
        entity: 'items',
        format: 'csv',
        gzip: true,
      });

      expect(upload).toEqual(accepted);
      expect(server.seen.map((request) => request.url)).toEqual([
        '/api/v1/integration/v1/imports?entity=items',
        '/api/v1/integration/v1/imports?entity=items',
      ]);
      expect(server.seen[1]!.headers).toMatchObject({
        'content-type': 'text/csv',
        'content-encoding': 'gzip',
        'idempotency-key': server.seen[0]!.headers['idempotency-key'],
      });
      expect(gunzipSync(server.seen[1]!.body).toString()).toBe('sku,name,baseUomCode\nA,A,EA\n');
    } finally {
      await server.close();
    }
  });

  it('when a bulk call is a real run it sends no query, as curl would; a dry run sends ?dryRun=true', async () => {
    const server = await scriptedServer([{ status: 200, body: { status: 'success', total: 0, data: [] } }]);
    try {
      const client = createClient({ baseUrl: server.url, apiKey: 'k' });

      await client.items.bulk({ items: [item] });
      await client.items.bulk({ items: [item] }, { dryRun: true });

      expect(server.seen.map((request) => request.url)).toEqual([
        '/api/v1/integration/v1/items/bulk',
        '/api/v1/integration/v1/items/bulk?dryRun=true',
      ]);
    } finally {
      await server.close();
    }
  });

  it('when a DELETE meets a 503, it is not sent again: only GETs and POSTs with their key are repeated', async () => {
    const server = await scriptedServer([{ status: 503, headers: { 'retry-after': '0' }, body: { message: 'busy' } }]);
    try {
      const cancel = createClient({ baseUrl: server.url, apiKey: 'k' }).jobs.cancel('import-1');

      await expect(cancel).rejects.toMatchObject({ name: 'WmsApiError', statusCode: 503 });
      expect(server.seen.map((request) => request.method)).toEqual(['DELETE']);
    } finally {
      await server.close();
    }
  });

  it('when the caller aborts a call, it ends with the caller’s reason and is not sent again', async () => {
    const server = await silentServer();
    try {
      const stop = new AbortController();
      const write = createClient({ baseUrl: server.url, apiKey: 'k' }).items.upsert(item, { signal: stop.signal });
      await waitUntil(() => server.received() === 1);

      stop.abort(new Error('shutting down'));

      await expect(write).rejects.toThrow('shutting down');
      expect(server.received()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('when nothing answers, each attempt ends at timeoutMs and the call rejects with a TimeoutError after its retries', async () => {
    const server = await silentServer();
    try {
      const client = createClient({ baseUrl: server.url, apiKey: 'k', timeoutMs: 200, retries: 1 });

      await expect(client.orders.get('SO-1')).rejects.toMatchObject({ name: 'TimeoutError' });
      expect(server.received()).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('when Retry-After asks for longer than the bound, the wait is the bound; an HTTP date counts from now', () => {
    expect(retryDelayMs('3600', 0, 30_000)).toBe(30_000);
    expect(retryDelayMs('2', 0, 30_000)).toBe(2_000);
    expect(retryDelayMs(new Date(Date.now() + 60_000).toUTCString(), 0, 5_000)).toBe(5_000);
    expect(retryDelayMs(null, 3, 30_000)).toBeLessThanOrEqual(2_000);
  });
});

describe('webhooks.unwrap', () => {
  const secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
  const previous = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
  const body = JSON.stringify({
    id: '6f9619ff-8b86-4d11-b42d-00c04fc964ff',
    event: 'stock.adjusted',
    timestamp: '2026-01-01T00:00:00.000Z',
    sequence: 3,
    data: { warehouseCode: 'MAIN', locationCode: 'A-01', sku: 'SKU-1', lotNo: null, qtyDelta: -2, qtyOnHand: 8 },
  });
  const { unwrap } = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }).webhooks;

  function signed(secrets: string[], at = new Date()) {
    const id = '6f9619ff-8b86-4d11-b42d-00c04fc964ff';
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': secrets.map((key) => new Webhook(key).sign(id, at, body)).join(' '),
    };
  }

  it('when a delivery is signed with the secret, it unwraps to the event typed by its name', () => {
    const event = unwrap(Buffer.from(body), signed([secret]), secret);

    if (event.event !== 'stock.adjusted') throw new Error(`unexpected ${event.event}`);
    expect(event.data.qtyDelta).toBe(-2);
  });

  it('when a rotation signs with the new and the old secret, a receiver holding either one accepts it', () => {
    const headers = new Headers(signed([secret, previous]));

    expect(unwrap(body, headers, previous).event).toBe('stock.adjusted');
    expect(unwrap(body, headers, [previous, secret]).event).toBe('stock.adjusted');
  });

  it('when the secret is not one of the signers, or the body was changed, or it is old, the delivery is refused', () => {
    const other = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
    const old = new Date(Date.now() - 6 * 60_000);

    expect(() => unwrap(body, signed([secret]), [other])).toThrow(WebhookVerificationError);
    expect(() => unwrap(body.replace('-2', '-20'), signed([secret]), secret)).toThrow(WebhookVerificationError);
    expect(() => unwrap(body, signed([secret], old), secret)).toThrow(/too old/);
    expect(() => unwrap(body, { 'webhook-id': 'x' }, secret)).toThrow(/missing header webhook-timestamp/);
  });
});
