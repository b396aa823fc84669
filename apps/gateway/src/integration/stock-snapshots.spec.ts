import { QueryTypes } from 'sequelize';
import { queuePrefix } from '@wms/platform';
import { StockSnapshotsService, createStockSnapshotsQueue } from '@wms/warehouse';
import {
  createApiKey,
  createMasterData,
  createTenantWithWarehouse,
  createTestContext,
  request,
  waitFor,
  type JsonNode,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

/**
 * Stock snapshots: POST /stock/snapshots answers 202 with a job; the ingest worker writes the tenant's stock
 * as of the requested time as an NDJSON file, served by GET /jobs/{jobId}/file to the key that asked.
 */
describe('stock snapshot exports', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let key: string;
  let keyId: string;
  let tenantId: string;
  let otherKey: string;

  beforeAll(async () => {
    ctx = await createTestContext('stock-snapshots');
    gateway = await ctx.startGateway();
    await ctx.startIngestWorker();
    const { tenant } = await createTenantWithWarehouse(ctx);
    await createMasterData(ctx, tenant.id, {
      items: [{ sku: 'PLAIN' }, { sku: 'LOT', tracking: 'lot' }],
      locations: ['A-01', 'B-01'].map((code) => ({ warehouseCode: 'WH1', code })),
    });
    tenantId = tenant.id;
    ({ rawKey: key, id: keyId } = await createApiKey(ctx, { tenantId: tenant.id }));
    otherKey = (await createApiKey(ctx, { tenantId: tenant.id })).rawKey;
  });
  afterAll(() => ctx.close());

  const call = (method: string, path: string, body?: unknown, apiKey = key) =>
    request(gateway.url, method, `${BASE}${path}`, { body, headers: { 'x-api-key': apiKey } });

  async function receive(lines: { sku: string; qty: number; locationCode: string; lotNo?: string }[]) {
    const response = await call('POST', '/grn', {
      warehouseCode: 'WH1',
      lines: lines.map((l) => ({ uomCode: 'EA', ...l })),
    });
    expect(response.status).toBe(201);
  }

  async function finished(jobId: string): Promise<JsonNode> {
    const done = await waitFor(
      async () => (await call('GET', `/jobs/${jobId}`)).body.data,
      (data) => ['completed', 'failed'].includes(String(data?.state)),
      20_000,
      'the snapshot job to finish',
    );
    return done as JsonNode;
  }

  it('when a snapshot is asked for a past time, its file lists every stock row with its balance at that time', async () => {
    await receive([
      { sku: 'PLAIN', qty: 10, locationCode: 'A-01' },
      { sku: 'LOT', qty: 3, locationCode: 'B-01', lotNo: 'L1' },
    ]);
    const [{ now: asOf }] = await ctx.runtime.db.sequelize.query<{ now: string }>(
      `SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS now`,
      { type: QueryTypes.SELECT },
    );
    await receive([
      { sku: 'PLAIN', qty: 5, locationCode: 'A-01' },
      { sku: 'PLAIN', qty: 2, locationCode: 'B-01' },
    ]);

    const accepted = await call('POST', '/stock/snapshots', { asOf });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({
      status: 'accepted',
      jobId: expect.stringMatching(/^snapshot-/),
      statusUrl: `${BASE}/jobs/${accepted.body.jobId}`,
    });
    const job = await finished(String(accepted.body.jobId));
    expect(job).toMatchObject({
      kind: 'stock_snapshot',
      state: 'completed',
      rows: 2,
      fileUrl: `${BASE}/jobs/${accepted.body.jobId}/file`,
    });

    const file = await request<string>(gateway.url, 'GET', `${BASE}/jobs/${accepted.body.jobId}/file`, {
      headers: { 'x-api-key': key },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const lines = String(file.body)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'PLAIN',
        lotNo: null,
        expiryDate: null,
        qtyOnHand: 10,
        qtyAllocated: 0,
        qtyAvailable: 10,
      },
      {
        warehouseCode: 'WH1',
        locationCode: 'B-01',
        sku: 'LOT',
        lotNo: 'L1',
        expiryDate: null,
        qtyOnHand: 3,
        qtyAllocated: 0,
        qtyAvailable: 3,
      },
    ]);

    const today = await call('POST', '/stock/snapshots', {});
    const todayJob = await finished(String(today.body.jobId));
    expect(todayJob).toMatchObject({ state: 'completed', rows: 3 });
  });

  it("when another key asks for a snapshot's status or file, it is not found", async () => {
    const accepted = await call('POST', '/stock/snapshots', {});
    await finished(String(accepted.body.jobId));

    const status = await call('GET', `/jobs/${accepted.body.jobId}`, undefined, otherKey);
    const file = await call('GET', `/jobs/${accepted.body.jobId}/file`, undefined, otherKey);

    expect([status.status, file.status]).toEqual([404, 404]);
  });

  it('when a snapshot request is repeated with its Idempotency-Key, the first answer is replayed and one snapshot is made', async () => {
    const send = () =>
      request(gateway.url, 'POST', `${BASE}/stock/snapshots`, {
        body: { warehouseCode: 'WH1' },
        headers: { 'x-api-key': key, 'idempotency-key': 'snapshot-once' },
      });
    const first = await send();
    const again = await send();

    expect([first.status, again.status]).toEqual([202, 202]);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body.jobId).toBe(first.body.jobId);
    await finished(String(first.body.jobId));
  });

  it('when a snapshot request is bad, it answers 400 and queues nothing', async () => {
    const before = await ctx.runtime.db.sequelize.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM stock_snapshots',
      {
        type: QueryTypes.SELECT,
      },
    );
    const answers = await Promise.all([
      call('POST', '/stock/snapshots', { asOf: 'yesterday' }),
      call('POST', '/stock/snapshots', { warehouseCode: 'NOPE' }),
      call('POST', '/stock/snapshots', { extra: true }),
    ]);
    expect(answers.map((answer) => [answer.status, answer.body.code])).toEqual([
      [400, 'VALIDATION_FAILED'],
      [400, 'REFERENCE_NOT_FOUND'],
      [400, 'VALIDATION_FAILED'],
    ]);
    const after = await ctx.runtime.db.sequelize.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM stock_snapshots',
      {
        type: QueryTypes.SELECT,
      },
    );
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("when a stored snapshot's job never reached Redis, or Redis lost it, the ingest worker's dispatcher adds it and the file is written", async () => {
    // A gateway whose Redis did not answer: the snapshot is stored (202) and no job is queued.
    const unqueued = await new StockSnapshotsService(ctx.runtime.db, null).request(tenantId, keyId, {});
    const neverQueued = await finished(unqueued);

    // A job Redis lost after it was handed over: the dispatcher looks it up again and adds it.
    const queue = createStockSnapshotsQueue({ connection: ctx.runtime.redis, prefix: queuePrefix(ctx.config) });
    await queue.pause();
    const accepted = await call('POST', '/stock/snapshots', {});
    await queue.obliterate({ force: true });
    await queue.resume();
    await ctx.runtime.db.sequelize.query(
      "UPDATE stock_snapshots SET dispatched_at = now() - interval '1 hour' WHERE id = $1",
      { bind: [accepted.body.jobId] },
    );
    const lost = await finished(String(accepted.body.jobId));
    await queue.close();

    expect([neverQueued.state, lost.state]).toEqual(['completed', 'completed']);
  });
});
