import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppendEventInput } from '@wms/events';
import { createRedis, settleWithin, type Config, unitOfWork } from '@wms/platform';
import {
  DeliveryEnqueuer,
  OutboxRelay,
  verifyWebhookSignature,
  type CreatedWebhookSubscription,
  type WebhookDeliveryQueue,
} from '@wms/webhooks';
import { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from '@wms/webhook-worker';
import type { TestContext } from './test-context.js';
import { waitFor } from './wait.js';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

/** How the receiver answers one request; `delayMs` holds the answer back, `hang` never answers. */
export interface ReceiverAnswer {
  status?: number;
  delayMs?: number;
  hang?: boolean;
  headers?: Record<string, string>;
  body?: string;
}

export type ReceiverBehaviour = (request: ReceivedRequest, indexOnPath: number) => ReceiverAnswer;

export interface WebhookReceiver {
  url: string;
  /** The URL of one path on this receiver (several subscribers can share one receiver). */
  urlFor(path: string): string;
  requests: ReceivedRequest[];
  on(path: string, behaviour: ReceiverBehaviour): void;
  requestsTo(path: string): ReceivedRequest[];
  /** Waits until `count` requests reached `path`, or throws after `timeoutMs`. */
  waitForRequests(path: string, count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A loopback HTTP receiver that records every request and answers as told (200 by default). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const behaviours = new Map<string, ReceiverBehaviour>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const received: ReceivedRequest = {
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      const index = requests.filter((request) => request.path === path).length;
      requests.push(received);
      const answer = behaviours.get(path)?.(received, index) ?? {};
      if (answer.hang) return;
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? 'ok');
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const requestsTo = (path: string) => requests.filter((request) => request.path === path);
  return {
    url,
    urlFor: (path) => `${url}${path}`,
    requests,
    on: (path, behaviour) => void behaviours.set(path, behaviour),
    requestsTo,
    async waitForRequests(path, count, timeoutMs = 15_000) {
      await waitFor(() => requestsTo(path).length >= count, timeoutMs, `${count} request(s) to ${path}`);
      return requestsTo(path);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Checks a received request the way an integrator would: the Standard Webhooks signature over the raw body. */
export function verifyReceived(request: ReceivedRequest, secret: string): boolean {
  const id = String(request.headers['webhook-id']);
  const timestamp = Number(request.headers['webhook-timestamp']);
  return verifyWebhookSignature(
    secret,
    id,
    timestamp,
    request.body,
    String(request.headers['webhook-signature'] ?? ''),
  );
}

export interface TestWebhookWorker extends WebhookWorker {
  /** Stops like a killed process: no waiting for attempts in flight, connections dropped. */
  kill(): Promise<void>;
}

/**
 * Runs the relay and the delivery worker in this process over the context's database and key prefix.
 * `webhook` overrides the context's WEBHOOK_* settings (short backoff, timeouts). Closed by ctx.close()
 * only if the test does not close it first.
 */
export function startTestWebhookWorker(
  ctx: TestContext,
  options: {
    webhook?: Partial<Config['webhook']>;
    /** DATABASE_READ_URLS of the worker: with replicas, it raises the tenants' write positions before sending. */
    readReplicaUrls?: string[];
  } & Partial<Omit<WebhookWorkerOptions, 'connection'>> = {},
): TestWebhookWorker {
  const { webhook, readReplicaUrls, ...workerOptions } = options;
  const config: Config = {
    ...ctx.config,
    webhook: { ...ctx.config.webhook, ...webhook },
    ...(readReplicaUrls && { readReplicas: { ...ctx.config.readReplicas, urls: readReplicaUrls } }),
  };
  const connection = createRedis(config, 'worker', 'test-webhook-worker');
  const started = startWebhookWorker(config, ctx.runtime.db, ctx.runtime.logger, {
    relayPollIntervalMs: 100,
    lockDurationMs: 2_000,
    stalledIntervalMs: 500,
    ...workerOptions,
    connection,
  });
  let closed = false;
  const close = async (force = false) => {
    if (closed) return;
    closed = true;
    // Bounded: BullMQ's graceful close waits for an 'end' that a reconnecting connection never emits.
    // closeWithin forces the close when the connections are not live at its start, but one that drops
    // during the close (a Sentinel failover, about one run in three before) still waits. Dropping the
    // connection ends it, as a container's shutdown timeout does in production.
    await settleWithin(started.close(force), 15_000);
    connection.disconnect();
  };
  ctx.onClose(() => close(true));
  return {
    ...started,
    close,
    async kill() {
      connection.disconnect();
      await close(true);
    },
  };
}

/** One event of each business event, with the data each carries. */
export function sampleEvents(tenantId: string): AppendEventInput[] {
  return [
    {
      tenantId,
      event: 'asn.received',
      data: {
        asnNo: 'ASN-20250101-000001',
        grnNo: 'GRN-20250101-000001',
        warehouseCode: 'WH1',
        lines: [{ lineNo: 1, sku: 'SKU-1', expectedQty: 10, receivedQty: 4 }],
      },
    },
    { tenantId, event: 'asn.completed', data: { asnNo: 'ASN-20250101-000001', warehouseCode: 'WH1' } },
    {
      tenantId,
      event: 'order.allocated',
      data: {
        orderNo: 'SO-20250101-000001',
        referenceNo: 'REF-1',
        warehouseCode: 'WH1',
        lines: [{ lineNo: 1, sku: 'SKU-1', qtyOrdered: 5, qtyAllocated: 5 }],
      },
    },
    {
      tenantId,
      event: 'order.released',
      data: {
        orderNo: 'SO-20250101-000001',
        referenceNo: 'REF-1',
        warehouseCode: 'WH1',
        pickTasks: [
          { id: '6f9619ff-8b86-4d11-b42d-00c04fc964ff', sku: 'SKU-1', locationCode: 'A-01', lotNo: 'LOT1', qty: 5 },
        ],
      },
    },
    {
      tenantId,
      event: 'order.shipped',
      data: {
        orderNo: 'SO-20250101-000001',
        referenceNo: 'REF-1',
        shipmentNo: 'SHP-20250101-000001',
        trackingNo: '1Z999',
        carrier: 'UPS',
        warehouseCode: 'WH1',
        lines: [{ lineNo: 1, sku: 'SKU-1', uomCode: 'EA', lotNo: 'LOT1', qty: 5 }],
      },
    },
    {
      tenantId,
      event: 'order.cancelled',
      data: { orderNo: 'SO-20250101-000002', referenceNo: 'REF-2', previousStatus: 'released' },
    },
    {
      tenantId,
      event: 'stock.adjusted',
      data: {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'SKU-1',
        lotNo: null,
        qtyDelta: -2,
        qtyOnHand: 8,
        reason: 'damaged',
      },
    },
    {
      tenantId,
      event: 'cyclecount.variance',
      data: {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'SKU-1',
        lotNo: null,
        systemQty: 8,
        countedQty: 7,
        variance: -1,
      },
    },
    {
      tenantId,
      event: 'return.received',
      data: {
        rmaNo: 'RMA-1',
        orderNo: 'SO-20250101-000001',
        warehouseCode: 'WH1',
        receiptId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        status: 'received',
        lines: [{ sku: 'SKU-1', lotNo: null, qty: 2, disposition: 'restock', locationCode: 'RECEIVING' }],
      },
    },
    {
      tenantId,
      event: 'return.completed',
      data: {
        rmaNo: 'RMA-1',
        orderNo: 'SO-20250101-000001',
        warehouseCode: 'WH1',
        status: 'received',
        lines: [{ lineNo: 1, sku: 'SKU-1', lotNo: null, qty: 2, receivedQty: 2 }],
      },
    },
    {
      tenantId,
      event: 'import.completed',
      data: {
        importId: '0b9e6a36-3f5e-4f8e-9c1d-2a7e4b5c6d7e',
        entity: 'items',
        state: 'completed',
        total: 3,
        processed: 3,
        created: 2,
        updated: 0,
        failed: 1,
        errorsUrl: '/api/v1/integration/v1/jobs/0b9e6a36-3f5e-4f8e-9c1d-2a7e4b5c6d7e/errors',
      },
    },
    {
      tenantId,
      event: 'bulk.completed',
      data: {
        jobId: 'ingest-6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c',
        entity: 'orders',
        state: 'completed',
        status: 'partial',
        total: 3,
        created: 2,
        updated: 0,
        failed: 1,
        statusUrl: '/api/v1/integration/v1/jobs/ingest-6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c',
      },
    },
  ];
}

/** Appends events the way an operation does: inside a transaction of its own. */
export async function appendEvents(ctx: Pick<TestContext, 'runtime' | 'services'>, events: AppendEventInput[]) {
  return unitOfWork(ctx.runtime.db, async (transaction) => {
    const appended = [];
    for (const event of events) appended.push(await ctx.services.events.append(transaction, event));
    return appended;
  });
}

/** Creates a subscription through the service (no HTTP). */
export async function createSubscription(
  ctx: Pick<TestContext, 'services'>,
  input: {
    url: string;
    events?: string[];
    tenantId?: string | null;
    description?: string;
    filter?: Record<string, unknown> | null;
    maxDeliveriesPerSecond?: number | null;
    ordered?: boolean;
    apiVersion?: string;
  },
): Promise<CreatedWebhookSubscription> {
  const { tenantId = null, ...body } = input;
  // The deployment's default version unless told, as createApiKey's keys.
  return ctx.services.webhooks.create({ events: ['*'], ...body }, tenantId, null);
}

/** A relay over the context's database that enqueues into `target` (a short add timeout simulates Redis being away). */
export function relayOver(
  ctx: Pick<TestContext, 'runtime'>,
  target: WebhookDeliveryQueue,
  addTimeoutMs = 5_000,
): OutboxRelay {
  return new OutboxRelay(
    ctx.runtime.db,
    new DeliveryEnqueuer(ctx.runtime.db, target, { addTimeoutMs }),
    ctx.runtime.logger,
    { pollIntervalMs: 50 },
  );
}

/** Runs relay passes until one finds nothing to fan out or enqueue. */
export async function drainRelay(relay: OutboxRelay): Promise<void> {
  for (let pass = await relay.runOnce(); pass.events + pass.enqueued > 0; pass = await relay.runOnce());
}
