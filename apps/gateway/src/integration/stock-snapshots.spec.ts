import { QueryTypes } from 'sequelize';
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
    key = (await createApiKey(ctx, { tenantId: tenant.id })).rawKey;
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
});
