import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import {
  createApiKey,
  createMasterData,
  createSubscription,
  createTestContext,
  defaultTenantId,
  request,
  scrapeMetrics,
  startWebhookReceiver,
  waitFor,
  type AcceptedJobAnswer,
  type JobStateAnswer,
  type JsonNode,
  type Scrape,
  type TestContext,
  type WebhookReceiver,
} from '@wms/testing';

// The three built apps as real processes: their /metrics after real traffic, and one request followed
// from the gateway through the ingest worker and the webhook worker by its request id and trace id.
const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const BASE = '/api/v1/integration/v1';
const TOKEN = 'observability-metrics-token';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

interface App {
  url: string;
  child: ChildProcess;
  lines(): Array<Record<string, unknown>>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function startApp(app: string, env: NodeJS.ProcessEnv, portVariable: string): Promise<App> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [join(root, 'apps', app, 'dist', 'main.js')], {
    env: { ...env, [portVariable]: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  // Three processes migrate and start at once on a machine the other test files also load: be patient.
  await waitFor(
    () =>
      fetch(`${url}/health/ready`).then(
        (r) => r.ok,
        () => false,
      ),
    90_000,
    `${app} ready`,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; its output:\n${output.slice(-2_000)}`);
  });
  const lines = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { url, child, lines };
}

function stop(app: App | undefined): Promise<void> {
  if (!app || app.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    app.child.once('exit', () => resolve());
    app.child.kill('SIGTERM');
  });
}

describe('operating the three processes', () => {
  let ctx: TestContext;
  let gateway: App;
  let ingest: App;
  let webhook: App;
  let receiver: WebhookReceiver;
  let key: string;
  const before: Record<string, Scrape> = {};

  beforeAll(async () => {
    ctx = await createTestContext('observability', {
      METRICS_TOKEN: TOKEN,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_BACKOFF_BASE_MS: '600000',
    });
    const tenantId = await defaultTenantId(ctx);
    key = (await createApiKey(ctx, { tenantId })).rawKey;
    await createMasterData(ctx, tenantId, {
      partners: [{ code: 'CUST', type: 'customer' }],
      items: [{ sku: 'WIDGET' }],
    });
    receiver = await startWebhookReceiver();
    receiver.on('/gone', () => ({ status: 410 }));
    receiver.on('/down', () => ({ status: 503 }));
    for (const path of ['/ok', '/gone', '/down'])
      await createSubscription(ctx, { url: receiver.urlFor(path), events: ['order.cancelled'], tenantId });
    [gateway, ingest, webhook] = await Promise.all([
      startApp('gateway', ctx.env, 'PORT'),
      startApp('ingest-worker', ctx.env, 'WORKER_HEALTH_PORT'),
      startApp('webhook-worker', ctx.env, 'WORKER_HEALTH_PORT'),
    ]);
    for (const [name, app] of Object.entries({ gateway, ingest, webhook }))
      before[name] = await scrapeMetrics(app.url, TOKEN);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([stop(gateway), stop(ingest), stop(webhook)]);
    await receiver?.close();
    await ctx.close();
  });

  const call = <T = JsonNode>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request<T>(gateway.url, method, `${BASE}${path}`, {
      body,
      headers: { 'x-api-key': key, traceparent: TRACEPARENT, ...headers },
    });

  it.each([
    ['gateway', () => gateway],
    ['ingest worker', () => ingest],
    ['webhook worker', () => webhook],
  ])('the %s answers /metrics only with the bearer METRICS_TOKEN', async (_name, app) => {
    expect((await scrapeMetrics(app().url)).status).toBe(401);
    const scraped = await scrapeMetrics(app().url, TOKEN);
    expect(scraped.status).toBe(200);
    expect(scraped.families()).toContain('nodejs_eventloop_lag_seconds');
  });

  it('a bulk call is followed into the ingest worker, and GET /jobs/:jobId names its request and trace', async () => {
    const accepted = await call<AcceptedJobAnswer>(
      'POST',
      '/items/bulk',
      {
        items: [
          { sku: 'B-1', name: 'one', baseUomCode: 'EA' },
          { sku: 'B-2', name: 'two', baseUomCode: 'EA' },
          { sku: 'B-3' },
        ],
      },
      { prefer: 'respond-async' },
    );
    expect(accepted.status).toBe(202);
    const { jobId, requestId } = accepted.body;

    let job: JobStateAnswer['data'];
    await waitFor(
      async () => {
        job = (await call<JobStateAnswer>('GET', `/jobs/${jobId}`)).body.data;
        return job?.state === 'completed';
      },
      45_000,
      'the bulk job to complete',
    );

    expect(job).toMatchObject({ requestId, traceId: TRACE_ID });
    // The job's row says completed before the worker has written its last log line.
    const doneLine = () => ingest.lines().find((line) => line.msg === 'ingest job done' && line.jobId === jobId);
    await waitFor(() => doneLine() !== undefined, 15_000, "the worker's 'ingest job done' line");
    const done = doneLine();
    expect(done).toMatchObject({ requestId, trace_id: TRACE_ID, entity: 'items', created: 2, errors: 1 });
    const scraped = await scrapeMetrics(ingest.url, TOKEN);
    const moved = (name: string, labels?: Record<string, string>) =>
      scraped.value(name, labels) - before.ingest!.value(name, labels);
    expect(moved('wms_ingest_jobs_total', { entity: 'items', outcome: 'completed' })).toBe(1);
    expect(moved('wms_ingest_entries_total', { entity: 'items', outcome: 'created' })).toBe(2);
    expect(moved('wms_ingest_entries_total', { entity: 'items', outcome: 'error' })).toBe(1);
    expect(moved('wms_ingest_job_duration_seconds_count', { entity: 'items' })).toBe(1);
    expect(moved('wms_ingest_queue_wait_seconds_count', { entity: 'items' })).toBe(1);
    expect(moved('bullmq_job_completed_total', { queue: 'ingest' })).toBe(1);
  }, 90_000);

  it('an event keeps the request that caused it: each delivery logs it, and the trace goes on to the subscriber', async () => {
    const created = await call<{ data: { orderNo: string }; code?: string }>('POST', '/orders', {
      warehouseCode: 'MAIN',
      customerCode: 'CUST',
      requiredDate: '2030-03-01',
      priority: 5,
      shipTo: { name: 'Jane Doe', address: '1 Main St' },
      referenceNo: 'OBS-1',
      lines: [{ lineNo: 1, sku: 'WIDGET', uomCode: 'EA', qtyOrdered: 1 }],
    });
    expect([created.status, created.body.code]).toEqual([201, undefined]);
    const cancelled = await call<{ requestId: string }>('POST', `/orders/${created.body.data.orderNo}/cancel`);
    expect(cancelled.status).toBe(200);
    const requestId = cancelled.body.requestId;

    const [delivered] = await receiver.waitForRequests('/ok', 1);
    await waitFor(
      () => webhook.lines().filter((line) => line.msg === 'webhook delivery attempt').length >= 3,
      45_000,
      'three delivery attempts logged',
    );

    expect(String(delivered!.headers.traceparent)).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    const attempts = webhook.lines().filter((line) => line.msg === 'webhook delivery attempt');
    expect(attempts.map((line) => line.outcome).sort()).toEqual(['failed', 'retry', 'succeeded']);
    for (const line of attempts)
      expect(line).toMatchObject({ requestId, trace_id: TRACE_ID, event: 'order.cancelled' });
    const scraped = await scrapeMetrics(webhook.url, TOKEN);
    const moved = (name: string, labels?: Record<string, string>) =>
      scraped.value(name, labels) - before.webhook!.value(name, labels);
    expect(moved('wms_webhook_deliveries_total', { outcome: 'succeeded' })).toBe(1);
    expect(moved('wms_webhook_deliveries_total', { outcome: 'disabled' })).toBe(1);
    expect(moved('wms_webhook_deliveries_total', { outcome: 'retried' })).toBe(1);
    expect(moved('wms_webhook_attempt_duration_seconds_count')).toBe(3);
    expect(scraped.value('wms_webhook_subscriptions_failing')).toBe(1);
    expect(scraped.text).toMatch(/^wms_outbox_backlog \d+$/m);
    expect(scraped.text).toMatch(/^wms_outbox_oldest_event_age_seconds \d+(\.\d+)?$/m);
    expect(scraped.text).toMatch(/^bullmq_job_count\{queue="webhook-delivery", state="delayed"\} 1$/m);
  }, 90_000);

  it('the gateway counts the calls above under their route templates', async () => {
    const scraped = await scrapeMetrics(gateway.url, TOKEN);
    const moved = (labels: Record<string, string>) =>
      scraped.value('http_request_duration_seconds_count', labels) -
      before.gateway!.value('http_request_duration_seconds_count', labels);
    expect(moved({ method: 'POST', route: `${BASE}/orders/:orderNo/cancel`, status_code: '200' })).toBe(1);
    expect(moved({ method: 'POST', route: `${BASE}/items/bulk`, status_code: '202' })).toBe(1);
    expect(moved({ method: 'GET', route: `${BASE}/jobs/:jobId`, status_code: '200' })).toBeGreaterThanOrEqual(1);
    expect(scraped.text).not.toMatch(/SO-\d{8}/);
  });
});
