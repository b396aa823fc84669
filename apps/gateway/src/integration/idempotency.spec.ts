import { createIngestQueue } from '@wms/ingest';
import {
  createApiKey,
  createTestContext,
  defaultTenantId,
  request,
  waitFor,
  type AcceptedJobAnswer,
  type JobStateAnswer,
  type JsonNode,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

const item = (sku: string, name = `Item ${sku}`) => ({ sku, name, baseUomCode: 'EA' });

describe('Idempotency-Key on integration POSTs', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let key: string;

  beforeAll(async () => {
    ctx = await createTestContext('idempotency');
    gateway = await ctx.startGateway();
    key = (await createApiKey(ctx, { tenantId: await defaultTenantId(ctx) })).rawKey;
  });
  afterAll(() => ctx.close());

  const post = <T = JsonNode>(
    path: string,
    body: unknown,
    idempotencyKey?: string,
    via = gateway,
    headers: Record<string, string> = {},
  ) =>
    request<T>(via.url, 'POST', `${BASE}${path}`, {
      body,
      headers: { 'x-api-key': key, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}), ...headers },
    });

  async function count(table: string, where: string, bind: unknown[] = []): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, {
      bind,
    })) as [{ n: number }[], unknown];
    return rows[0]!.n;
  }

  it('when 50 requests with one Idempotency-Key arrive at once, one write happens and the rest are refused as in progress or replayed', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => post('/partners', { code: 'RACE', name: 'Race', type: 'customer' }, 'race-key')),
    );

    const statuses = responses.map((response) => response.status);
    const firsts = responses.filter(
      (response) => response.status === 200 && !response.headers.get('idempotent-replay'),
    );
    expect(firsts).toHaveLength(1);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    for (const response of responses.filter((candidate) => candidate.status === 409)) {
      expect(response.body.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    }
    for (const response of responses.filter((candidate) => candidate.headers.get('idempotent-replay'))) {
      expect(response.body).toEqual(firsts[0]!.body);
    }
    expect(await count('partners', `code = 'RACE'`)).toBe(1);
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `SELECT updated_at = created_at AS untouched FROM partners WHERE code = 'RACE'`,
    )) as [{ untouched: boolean }[], unknown];
    expect(rows[0]!.untouched).toBe(true);
  });

  it('when a request is repeated with its key, the first answer is replayed with its status, body and Idempotent-Replay: true', async () => {
    const first = await post('/items', item('REPLAY-1'), 'replay-key');

    const second = await post('/items', item('REPLAY-1'), 'replay-key');

    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replay')).toBeNull();
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replay')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(second.body.data.created).toBe(true);
  });

  it('when a 4xx answer is repeated, it is replayed too', async () => {
    const first = await post('/locations', { warehouseCode: 'NOPE', code: 'L' }, 'error-key');

    const second = await post('/locations', { warehouseCode: 'NOPE', code: 'L' }, 'error-key');

    expect(first.status).toBe(400);
    expect(second.status).toBe(400);
    expect(second.headers.get('idempotent-replay')).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('when the key comes back with a different body, it answers 409 IDEMPOTENCY_KEY_MISMATCH naming the body and writes nothing', async () => {
    await post('/items', item('MISMATCH-1'), 'mismatch-key');

    const response = await post('/items', item('MISMATCH-2'), 'mismatch-key');

    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      status: 'error',
      code: 'IDEMPOTENCY_KEY_MISMATCH',
      message: 'This Idempotency-Key was used with a different request: its body differs',
      details: [{ path: 'body', message: expect.any(String) }],
    });
    expect(await count('items', `sku = 'MISMATCH-2'`)).toBe(0);
  });

  it('when the same bulk body comes with its JSON keys in another order and other spacing, the first answer is replayed', async () => {
    // A dry run answers the bulk envelope without a job: no ingest worker runs in this file.
    const first = await request(gateway.url, 'POST', `${BASE}/items/bulk?dryRun=true`, {
      rawBody: '{"items":[{"sku":"JCS-1","name":"Mug","baseUomCode":"EA","weightKg":0.5}]}',
      headers: { 'x-api-key': key, 'idempotency-key': 'jcs-key' },
    });

    const second = await request(gateway.url, 'POST', `${BASE}/items/bulk?dryRun=true`, {
      rawBody: '{ "items": [ { "weightKg": 0.50, "baseUomCode": "EA", "name": "Mug", "sku": "JCS-1" } ] }',
      headers: { 'x-api-key': key, 'idempotency-key': 'jcs-key' },
    });

    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replay')).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('when the key comes back with another query, it answers 409 IDEMPOTENCY_KEY_MISMATCH naming the query', async () => {
    const items = { items: [item('QUERY-1')] };
    await post('/items/bulk?dryRun=true', items, 'query-key');

    const response = await post('/items/bulk', items, 'query-key');

    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      code: 'IDEMPOTENCY_KEY_MISMATCH',
      message: 'This Idempotency-Key was used with a different request: its query differs',
      details: [{ path: 'query', message: expect.any(String) }],
    });
    expect(await count('items', `sku = 'QUERY-1'`)).toBe(0);
  });

  it('when an upload comes again with its query parameters in another order, the first answer is replayed', async () => {
    const crossTenant = (await createApiKey(ctx, { tenantId: null })).rawKey;
    const tenantId = await defaultTenantId(ctx);
    const upload = (query: string) =>
      request(gateway.url, 'POST', `${BASE}/imports?${query}`, {
        rawBody: `${JSON.stringify(item('UPLOAD-1'))}\n`,
        headers: { 'x-api-key': crossTenant, 'idempotency-key': 'upload-key', 'content-type': 'application/x-ndjson' },
      });

    const first = await upload(`entity=items&tenantId=${tenantId}`);
    const second = await upload(`tenantId=${tenantId}&entity=items`);

    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replay')).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('when another API key uses the same Idempotency-Key, it is a different key space', async () => {
    const otherKey = (await createApiKey(ctx, { tenantId: await defaultTenantId(ctx) })).rawKey;
    await post('/items', item('SCOPE-1'), 'scoped-key');

    const response = await request(gateway.url, 'POST', `${BASE}/items`, {
      body: item('SCOPE-2'),
      headers: { 'x-api-key': otherKey, 'idempotency-key': 'scoped-key' },
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('idempotent-replay')).toBeNull();
  });

  it('when the guard refuses a request, its answer is not stored under the key', async () => {
    const readOnly = (await createApiKey(ctx, { tenantId: await defaultTenantId(ctx), scopes: ['read'] })).rawKey;
    const refused = await request(gateway.url, 'POST', `${BASE}/items`, {
      body: item('GUARD-1'),
      headers: { 'x-api-key': readOnly, 'idempotency-key': 'guard-key' },
    });

    expect(refused.status).toBe(401);
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `SELECT count(*)::int AS n FROM idempotency_records WHERE idempotency_key = 'guard-key'`,
    )) as [{ n: number }[], unknown];
    expect(rows[0]!.n).toBe(0);
  });

  it('when the key has expired, the request is processed as new', async () => {
    const shortLived = await ctx.startGateway({ IDEMPOTENCY_TTL_SECONDS: '1' });
    const first = await post('/items', item('EXPIRY-1', 'First'), 'expiry-key', shortLived);
    expect(first.body.data.created).toBe(true);

    const second = await waitFor(
      () => post('/items', item('EXPIRY-1', 'First'), 'expiry-key', shortLived),
      (response) => response.headers.get('idempotent-replay') === null,
      20_000,
    );

    expect(second.status).toBe(200);
    expect(second.body.data).toEqual({ id: first.body.data.id, sku: 'EXPIRY-1', created: false });
  });

  it('when a bulk call is replayed, the 202 is replayed with the same job and nothing is enqueued twice', async () => {
    const first = await post('/items/bulk', { items: [item('BULK-REPLAY-1')] }, 'bulk-replay-key', gateway, {
      prefer: 'respond-async',
    });

    const second = await post('/items/bulk', { items: [item('BULK-REPLAY-1')] }, 'bulk-replay-key', gateway, {
      prefer: 'respond-async',
    });

    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replay')).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('when the gateway dies mid-bulk, the client retry with the same key attaches to the one job and the rows are written once', async () => {
    const queue = createIngestQueue({ connection: ctx.runtime.redis, prefix: ctx.config.redisKeyPrefix });
    const before = await queue.getJobCounts('waiting');
    const items = Array.from({ length: 20 }, (_, n) => item(`CRASH-${n}`));
    const doomed = await ctx.startGateway({ BULK_SYNC_TIMEOUT_MS: '3000' });
    const inFlight = post('/items/bulk', { items }, 'crash-key', doomed).catch((error: unknown) => error);
    await waitFor(
      () => queue.getJobCounts('waiting'),
      (counts) => counts.waiting === before.waiting + 1,
      20_000,
    );

    await doomed.kill();
    await inFlight;
    const survivor = await ctx.startGateway({ BULK_SYNC_TIMEOUT_MS: '200' });
    const retried = await waitFor(
      () => post<AcceptedJobAnswer>('/items/bulk', { items }, 'crash-key', survivor),
      (response) => response.status !== 409,
      20_000,
    );
    expect(retried.status).toBe(202);
    expect(retried.headers.get('idempotent-replay')).toBeNull();
    const worker = await ctx.startIngestWorker();
    const job = await waitFor(
      () => request<JobStateAnswer>(survivor.url, 'GET', retried.body.statusUrl, { headers: { 'x-api-key': key } }),
      (answer) => answer.body.data?.state === 'completed',
      20_000,
    );

    expect(job.body.data?.result).toMatchObject({ status: 'success', total: 20, created: 20, updated: 0 });
    expect(await count('items', `sku LIKE 'CRASH-%'`)).toBe(20);
    const [stored] = (await ctx.runtime.db.sequelize.query(
      `SELECT id FROM bulk_jobs WHERE entries LIKE '%"CRASH-0"%'`,
    )) as [Array<{ id: string }>, unknown];
    expect(stored.map((row) => row.id)).toEqual([retried.body.jobId]);
    // Its one BullMQ job ran and left Redis on completion: nothing of it is left waiting to run again.
    const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed']);
    expect(jobs.filter((candidate) => candidate.id === retried.body.jobId)).toHaveLength(0);
    await worker.close();
    await queue.close();
  });
});
