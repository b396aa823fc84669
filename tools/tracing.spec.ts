import {
  TEST_ADMIN,
  createApiKey,
  createMasterData,
  createSandboxTenant,
  createSubscription,
  createTestContext,
  defaultTenantId,
  loginAs,
  request,
  startAppProcess,
  startOtlpReceiver,
  startWebhookReceiver,
  upload,
  waitFor,
  type AcceptedJobAnswer,
  type AppProcess,
  type ExportedSpan,
  type JobStateAnswer,
  type OtlpReceiver,
  type TestContext,
  type WebhookReceiver,
} from '@wms/testing';

// The three built apps as real processes, each exporting its spans to an OTLP/HTTP receiver this file starts
// (the gateway and the webhook worker in OTLP/JSON, the ingest worker in OTLP/protobuf), and one request of
// each kind followed by its trace id from the caller to the subscriber.
const BASE = '/api/v1/integration/v1';
const CALLER_SPAN = '00f067aa0ba902b7';
const OTLP = { server: 2, client: 3, producer: 4, consumer: 5 } as const;
/**
 * What one delivery attempt may export in all: its `webhook deliver` span and HTTP client span, and its share
 * of the relay's pass and the batch jobs (their adds, processing and batched statements). Measured: 1,000
 * deliveries exported about 2,200 spans, 2,000 of them in the event's trace.
 */
const SPANS_PER_ATTEMPT = 3;

const traceIdOf = (header: unknown) => /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(header))?.slice(1);
const newTraceId = () => Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
const traceparent = (traceId: string) => `00-${traceId}-${CALLER_SPAN}-01`;

describe('tracing across the three processes', () => {
  let ctx: TestContext;
  let otlp: OtlpReceiver;
  let receiver: WebhookReceiver;
  let apps: AppProcess[] = [];
  let gateway: AppProcess;
  let key: string;
  let sandboxKey: string;
  let token: string;
  let tenantId: string;
  const secrets: string[] = [];

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    receiver = await startWebhookReceiver();
    ctx = await createTestContext('tracing', {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      RETENTION_SWEEP_INTERVAL_MS: '1000',
      WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT: '1100',
    });
    tenantId = await defaultTenantId(ctx);
    key = (await createApiKey(ctx, { tenantId })).rawKey;
    await createMasterData(ctx, tenantId, {
      items: [{ sku: 'TRACED' }],
      locations: [{ warehouseCode: 'MAIN', code: 'T-01' }],
    });
    for (const event of ['import.completed', 'stock.adjusted', 'bulk.completed'])
      secrets.push(
        (await createSubscription(ctx, { url: receiver.urlFor(`/${event}`), events: [event], tenantId })).secret,
      );
    // A sandbox tenant, for a simulation: its events go to a path of their own.
    const { tenant: sandbox } = await createSandboxTenant(ctx);
    sandboxKey = (await createApiKey(ctx, { tenantId: sandbox.id })).rawKey;
    await createMasterData(ctx, sandbox.id, { items: [{ sku: 'SIMULATED' }] });
    secrets.push(
      (
        await createSubscription(ctx, {
          url: receiver.urlFor('/sandbox'),
          events: ['stock.adjusted'],
          tenantId: sandbox.id,
        })
      ).secret,
    );
    const tracing = {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_TRACES_SAMPLER_ARG: '1',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    };
    const json = { ...ctx.env, ...tracing, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
    // Three processes loading the SDK at once on a machine the other test files also load: be patient.
    const patient = { readyWithinMs: 240_000 };
    apps = await Promise.all([
      startAppProcess('gateway', json, patient),
      startAppProcess(
        'ingest-worker',
        { ...ctx.env, ...tracing, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
        patient,
      ),
      startAppProcess('webhook-worker', json, patient),
    ]);
    gateway = apps[0]!;
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.kill('SIGTERM')));
    await receiver?.close();
    await otlp?.close();
    await ctx?.close();
  });

  const spansOf = (traceId: string) => otlp.spans().filter((span) => span.traceId === traceId);
  const find = (traceId: string, service: string, test: (span: ExportedSpan) => boolean) =>
    spansOf(traceId).find((span) => span.service === service && test(span));
  const isSql = (span: ExportedSpan) =>
    span.attributes['db.system'] === 'postgresql' || span.attributes['db.system.name'] === 'postgresql';

  /** Waits until the receiver got a delivery of `path` whose traceparent names `traceId`, and its client span. */
  async function deliveredInTrace(path: string, traceId: string) {
    await waitFor(
      () => receiver.requestsTo(path).some((received) => traceIdOf(received.headers.traceparent)?.[0] === traceId),
      60_000,
      `a delivery to ${path} in trace ${traceId}`,
    );
    const delivered = receiver.requestsTo(path).find((r) => traceIdOf(r.headers.traceparent)?.[0] === traceId)!;
    const [, parentId] = traceIdOf(delivered.headers.traceparent)!;
    await waitFor(
      () => find(traceId, 'webhook-worker', (span) => span.spanId === parentId) !== undefined,
      30_000,
      "the delivery's HTTP client span",
    );
    const client = find(traceId, 'webhook-worker', (span) => span.spanId === parentId)!;
    const attempt = find(traceId, 'webhook-worker', (span) => span.name === 'webhook deliver')!;
    return { client, attempt };
  }

  it('a bulk call continues the caller trace: the gateway request, its SQL and queue add, the ingest job, and the subscriber of its bulk.completed', async () => {
    const traceId = newTraceId();
    const accepted = await request<AcceptedJobAnswer>(gateway.url, 'POST', `${BASE}/items/bulk`, {
      headers: { 'x-api-key': key, traceparent: traceparent(traceId), prefer: 'respond-async' },
      body: { items: [{ sku: 'BULK-TRACED-1', name: 'Body value never in a span', baseUomCode: 'EA' }] },
    });
    expect(accepted.status).toBe(202);
    await waitFor(
      async () =>
        (
          await request<JobStateAnswer>(gateway.url, 'GET', `${BASE}/jobs/${accepted.body.jobId}`, {
            headers: { 'x-api-key': key },
          })
        ).body.data?.state === 'completed',
      45_000,
      'the bulk job to complete',
    );
    await waitFor(
      () => find(traceId, 'ingest-worker', (span) => span.kind === OTLP.consumer) !== undefined,
      30_000,
      "the ingest worker's job span",
    );

    const server = find(traceId, 'gateway', (span) => span.kind === OTLP.server)!;
    expect(server.parentSpanId).toBe(CALLER_SPAN);
    expect(server.attributes['http.route']).toBe(`${BASE}/items/bulk`);
    expect(find(traceId, 'gateway', isSql)).toBeDefined();
    const add = find(traceId, 'gateway', (span) => span.kind === OTLP.producer)!;
    expect(add.name).toBe('add ingest.items');
    const job = find(traceId, 'ingest-worker', (span) => span.kind === OTLP.consumer)!;
    expect(job.name).toBe('process ingest');
    expect(job.parentSpanId).toBe(add.spanId);
    expect(find(traceId, 'ingest-worker', isSql)).toBeDefined();
    // Answered 202, the call is told of the job's end: the event carries the job's context to the subscriber.
    const { client, attempt } = await deliveredInTrace('/bulk.completed', traceId);
    expect(attempt.attributes['wms.event.type']).toBe('bulk.completed');
    expect(client.kind).toBe(OTLP.client);
    expect(client.parentSpanId).toBe(attempt.spanId);
  }, 120_000);

  it('a file import continues the caller trace to the subscriber of its import.completed event', async () => {
    const traceId = newTraceId();
    const answer = await upload(
      gateway.url,
      `${BASE}/imports?entity=items`,
      { 'x-api-key': key, traceparent: traceparent(traceId), 'content-type': 'application/x-ndjson' },
      '{"sku":"IMPORT-TRACED-1","name":"Imported","baseUomCode":"EA"}\n',
    );
    expect(answer.status).toBe(202);

    const { client, attempt } = await deliveredInTrace('/import.completed', traceId);

    expect(find(traceId, 'gateway', (span) => span.kind === OTLP.server)?.parentSpanId).toBe(CALLER_SPAN);
    expect(find(traceId, 'ingest-worker', (span) => span.name === 'import chunk')).toBeDefined();
    expect(attempt.attributes['wms.event.type']).toBe('import.completed');
    expect(client.kind).toBe(OTLP.client);
    expect(client.parentSpanId).toBe(attempt.spanId);
  }, 90_000);

  it('a staff stock adjustment continues the caller trace to the subscriber of its stock.adjusted event', async () => {
    const traceId = newTraceId();
    const adjusted = await request(gateway.url, 'POST', `/api/v1/stock/adjustments?tenantId=${tenantId}`, {
      token,
      headers: { traceparent: traceparent(traceId) },
      body: { warehouseCode: 'MAIN', locationCode: 'T-01', sku: 'TRACED', qtyDelta: 3, reason: 'traced count' },
    });
    expect(adjusted.status).toBe(201);

    const { client, attempt } = await deliveredInTrace('/stock.adjusted', traceId);

    const server = find(traceId, 'gateway', (span) => span.kind === OTLP.server)!;
    expect(server.parentSpanId).toBe(CALLER_SPAN);
    expect(find(traceId, 'gateway', isSql)).toBeDefined();
    expect(attempt.attributes['wms.event.type']).toBe('stock.adjusted');
    expect(client.attributes['http.response.status_code']).toBe(200);
    // The attempt runs in a delivery job of the webhook worker, which it links to.
    expect(attempt.links).toHaveLength(1);
  }, 90_000);

  it('a sandbox simulation continues the caller trace to the subscriber of the event it caused', async () => {
    const traceId = newTraceId();
    const simulated = await request(gateway.url, 'POST', `${BASE}/simulations`, {
      headers: { 'x-api-key': sandboxKey, traceparent: traceparent(traceId) },
      body: { type: 'stock.adjusted', sku: 'SIMULATED', qtyDelta: 2 },
    });
    expect(simulated.status).toBe(202);

    const { client, attempt } = await deliveredInTrace('/sandbox', traceId);

    const server = find(traceId, 'gateway', (span) => span.kind === OTLP.server)!;
    expect(server.parentSpanId).toBe(CALLER_SPAN);
    expect(server.attributes['http.route']).toBe(`${BASE}/simulations`);
    expect(find(traceId, 'gateway', isSql)).toBeDefined();
    expect(attempt.attributes['wms.event.type']).toBe('stock.adjusted');
    expect(client.kind).toBe(OTLP.client);
    expect(client.parentSpanId).toBe(attempt.spanId);
  }, 90_000);

  it('a call without a traceparent starts a trace at the gateway', async () => {
    const answered = await request(gateway.url, 'GET', `${BASE}/stock?sku=TRACED`, { headers: { 'x-api-key': key } });
    expect(answered.status).toBe(200);
    await waitFor(
      () => otlp.spans().some((span) => span.kind === OTLP.server && span.attributes['http.route'] === `${BASE}/stock`),
      30_000,
      'the inquiry span',
    );
    const inquiry = otlp.spans().find((span) => span.attributes['http.route'] === `${BASE}/stock`)!;
    expect(inquiry.parentSpanId).toBeUndefined();
  });

  it('the ingest worker exported in OTLP/protobuf and the others in OTLP/JSON, and the receiver decoded both', () => {
    expect(new Set(otlp.contentTypes())).toEqual(new Set(['application/json', 'application/x-protobuf']));
    expect(new Set(otlp.spans().map((span) => span.service))).toEqual(
      new Set(['gateway', 'ingest-worker', 'webhook-worker']),
    );
  });

  it('no exported span holds an API key, a token, a webhook secret, a password or a request body value', () => {
    const exported = JSON.stringify(otlp.spans());
    for (const secret of [key, sandboxKey, token, ...secrets, TEST_ADMIN.password, 'Body value never in a span'])
      expect(exported).not.toContain(secret);
    const headers = otlp.spans().flatMap((span) => Object.keys(span.attributes).filter((name) => /header/.test(name)));
    expect(headers).toEqual([]);
  });

  it('the maintenance scheduler runs are each a trace of their own, not one trace that grows', async () => {
    const runs = () =>
      otlp.spans().filter((span) => span.kind === OTLP.consumer && span.name === 'process maintenance');
    await waitFor(() => runs().length >= 3, 30_000, 'three maintenance runs');
    const traces = new Set(runs().map((span) => span.traceId));
    expect(traces.size).toBe(runs().length);
  });

  it('an event delivered to 1,000 subscribers exports one attempt span each and a bounded number in all', async () => {
    const subscribers = 1_000;
    const fanOutTenant = await ctx.services.tenants.create({ code: 'FANOUT', name: 'Fan-out' });
    await ctx.services.warehouses.create({ tenantId: fanOutTenant.id, code: 'FAN', name: 'Fan-out' });
    await createMasterData(ctx, fanOutTenant.id, {
      items: [{ sku: 'FAN' }],
      locations: [{ warehouseCode: 'FAN', code: 'F-01' }],
    });
    for (let n = 0; n < subscribers; n += 1)
      await createSubscription(ctx, {
        url: receiver.urlFor('/fan-out'),
        events: ['stock.adjusted'],
        tenantId: fanOutTenant.id,
      });
    const before = otlp.spans().length;
    const traceId = newTraceId();

    const adjusted = await request(gateway.url, 'POST', `/api/v1/stock/adjustments?tenantId=${fanOutTenant.id}`, {
      token,
      headers: { traceparent: traceparent(traceId) },
      body: { warehouseCode: 'FAN', locationCode: 'F-01', sku: 'FAN', qtyDelta: 1, reason: 'fan-out' },
    });
    expect(adjusted.status).toBe(201);
    await receiver.waitForRequests('/fan-out', subscribers, 180_000);
    const attempts = () => spansOf(traceId).filter((span) => span.name === 'webhook deliver');
    // A loaded machine may time an attempt out and retry it: every attempt recorded is counted, none twice.
    const recorded = async () => {
      const [rows] = (await ctx.runtime.db.sequelize.query(
        `SELECT count(a.id)::int AS attempts, count(DISTINCT d.id) FILTER (WHERE d.status = 'succeeded')::int AS succeeded
           FROM webhook_deliveries d LEFT JOIN webhook_delivery_attempts a ON a.delivery_id = d.id
          WHERE d.subscription_id IN (SELECT id FROM webhook_subscriptions WHERE tenant_id = $1)`,
        { bind: [fanOutTenant.id] },
      )) as [Array<{ attempts: number; succeeded: number }>, unknown];
      return rows[0]!;
    };
    await waitFor(
      async () => {
        const { attempts: made, succeeded } = await recorded();
        return succeeded === subscribers && attempts().length === made;
      },
      120_000,
      'every delivery succeeded and each attempt exported',
    );

    const made = attempts().length;
    expect(new Set(attempts().map((span) => span.attributes['wms.webhook.delivery.id'])).size).toBe(subscribers);
    const sends = spansOf(traceId).filter((span) => span.service === 'webhook-worker' && span.kind === OTLP.client);
    expect(sends).toHaveLength(made);
    // 2 per attempt in the event's trace (attempt + HTTP client) and the gateway request's few.
    expect(spansOf(traceId).length).toBeLessThanOrEqual(2 * made + 50);
    expect(otlp.spans().length - before).toBeLessThanOrEqual(SPANS_PER_ATTEMPT * made);
  }, 420_000);
});
