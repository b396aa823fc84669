import { QueryTypes } from 'sequelize';
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
  type TestWorker,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

const item = (sku: string, name = `Item ${sku}`) => ({ sku, name, baseUomCode: 'EA' });

describe('integration bulk upserts through the ingest worker', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let worker: TestWorker;
  let key: string;
  /** Every job this file's calls were answered 202 for: each, and only these, tell their end. */
  const acceptedJobs: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext('bulk-routes');
    gateway = await ctx.startGateway();
    worker = await ctx.startIngestWorker();
    key = (await createApiKey(ctx, { tenantId: await defaultTenantId(ctx) })).rawKey;
  });
  afterAll(() => ctx.close());

  const post = <T = JsonNode>(path: string, body: unknown, headers: Record<string, string> = {}, via = gateway) =>
    request<T>(via.url, 'POST', `${BASE}${path}`, { body, headers: { 'x-api-key': key, ...headers } });

  async function countItems(skuPrefix: string): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query('SELECT count(*)::int AS n FROM items WHERE sku LIKE $1', {
      bind: [`${skuPrefix}%`],
    })) as [{ n: number }[], unknown];
    return rows[0]!.n;
  }

  it('when every entry is good, it answers 200 with the bulk envelope', async () => {
    const response = await post('/items/bulk', { items: [item('OK-1'), item('OK-2')] });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'success',
      total: 2,
      created: 2,
      updated: 0,
      errors: [],
      data: [
        { index: 0, key: 'OK-1', status: 'created', data: { id: expect.any(String), sku: 'OK-1' } },
        { index: 1, key: 'OK-2', status: 'created', data: { id: expect.any(String), sku: 'OK-2' } },
      ],
      requestId: expect.any(String),
    });
  });

  it('when some entries are bad, it answers 207 with results aligned to the entries and writes the good ones', async () => {
    await post('/items/bulk', { items: [item('MIX-EXISTING')] });

    const response = await post('/items/bulk', {
      items: [
        item('MIX-1'),
        { sku: 'MIX-BAD', name: 'No unit', colour: 'red' },
        item('MIX-EXISTING', 'Renamed'),
        'not an object',
      ],
    });

    expect(response.status).toBe(207);
    expect(response.body).toMatchObject({ status: 'partial', total: 4, created: 1, updated: 1 });
    expect(response.body.data.map((entry) => [entry.index, entry.key, entry.status])).toEqual([
      [0, 'MIX-1', 'created'],
      [1, 'MIX-BAD', 'error'],
      [2, 'MIX-EXISTING', 'updated'],
      [3, '', 'error'],
    ]);
    expect(response.body.data[1].error).toMatch(/baseUomCode.*required.*colour.*not allowed/);
    expect(response.body.errors).toEqual([
      { index: 1, key: 'MIX-BAD', error: response.body.data[1].error },
      { index: 3, key: '', error: expect.any(String) },
    ]);
    expect(await countItems('MIX-')).toBe(2);
  });

  it('when a bulk holds one entry more than the limit, it answers 400 VALIDATION_FAILED and writes nothing', async () => {
    const items = Array.from({ length: 501 }, (_, n) => item(`LIMIT-${n}`));

    const response = await post('/items/bulk', { items });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 'error',
      code: 'VALIDATION_FAILED',
      details: [{ path: 'items', message: expect.stringContaining('500') }],
    });
    expect(await countItems('LIMIT-')).toBe(0);
  });

  it('when the envelope is not an object, has no array or an empty one, it answers 400', async () => {
    const responses = await Promise.all([
      post('/items/bulk', [item('E-1')]),
      post('/items/bulk', { partners: [] }),
      post('/items/bulk', { items: [] }),
    ]);

    expect(responses.map((response) => [response.status, response.body.code])).toEqual(
      Array(3).fill([400, 'VALIDATION_FAILED']),
    );
  });

  it('when one bulk repeats a key, the later entry updates the earlier one and both are reported', async () => {
    const response = await post('/items/bulk', {
      items: [item('DUP-1', 'First'), item('DUP-2'), item('DUP-1', 'Second')],
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 3, created: 2, updated: 1 });
    expect(response.body.data.map((entry) => entry.status)).toEqual(['created', 'created', 'updated']);
    expect(response.body.data[2].data.id).toBe(response.body.data[0].data.id);
    const [rows] = (await ctx.runtime.db.sequelize.query(`SELECT name FROM items WHERE sku = 'DUP-1'`)) as [
      { name: string }[],
      unknown,
    ];
    expect(rows).toEqual([{ name: 'Second' }]);
  });

  it('when locations name known and unknown warehouses, the unknown ones are entry errors', async () => {
    const response = await post('/locations/bulk', {
      locations: [
        { warehouseCode: 'MAIN', code: 'BULK-1' },
        { warehouseCode: 'NOWHERE', code: 'BULK-2' },
      ],
    });

    expect(response.status).toBe(207);
    expect(response.body.data[0]).toEqual({
      index: 0,
      key: 'MAIN/BULK-1',
      status: 'created',
      data: { id: expect.any(String), warehouseCode: 'MAIN', code: 'BULK-1' },
    });
    expect(response.body.errors).toEqual([
      { index: 1, key: 'NOWHERE/BULK-2', error: 'Warehouse code NOWHERE not found' },
    ]);
  });

  it('when partners are sent in bulk, they are upserted by code', async () => {
    const response = await post('/partners/bulk', { partners: [{ code: 'BP-1', name: 'Carrier', type: 'carrier' }] });

    expect(response.status).toBe(200);
    expect(response.body.data[0]).toMatchObject({ key: 'BP-1', status: 'created', data: { code: 'BP-1' } });
  });

  it('when dryRun=true, it answers what would happen and writes nothing', async () => {
    await post('/items/bulk', { items: [item('DRY-EXISTING', 'Kept')] });

    const response = await post('/items/bulk?dryRun=true', {
      items: [item('DRY-NEW'), item('DRY-EXISTING', 'Changed'), { sku: 'DRY-BAD' }],
    });

    expect(response.status).toBe(207);
    expect(response.body.data.map((entry) => [entry.status, entry.data?.id ?? null])).toEqual([
      ['created', null],
      ['updated', expect.any(String)],
      ['error', null],
    ]);
    expect(await countItems('DRY-NEW')).toBe(0);
    const [rows] = (await ctx.runtime.db.sequelize.query(`SELECT name FROM items WHERE sku = 'DRY-EXISTING'`)) as [
      { name: string }[],
      unknown,
    ];
    expect(rows).toEqual([{ name: 'Kept' }]);
  });

  it('when the client sends Prefer: respond-async, it answers 202 at once and the job can be read by its key', async () => {
    const response = await post<AcceptedJobAnswer>(
      '/items/bulk',
      { items: [item('ASYNC-1')] },
      { prefer: 'respond-async' },
    );

    expect(response.status).toBe(202);
    acceptedJobs.push(response.body.jobId);
    expect(response.body).toEqual({
      status: 'accepted',
      jobId: expect.any(String),
      statusUrl: `${BASE}/jobs/${response.body.jobId}`,
      requestId: expect.any(String),
    });
    const job = await waitFor(
      () => request<JobStateAnswer>(gateway.url, 'GET', response.body.statusUrl, { headers: { 'x-api-key': key } }),
      (answer) => answer.body.data?.state === 'completed',
    );
    expect(job.body).toEqual({
      status: 'success',
      data: {
        jobId: response.body.jobId,
        state: 'completed',
        result: expect.objectContaining({ status: 'success', total: 1, created: 1 }),
        requestId: response.body.requestId,
      },
      requestId: expect.any(String),
    });
  });

  it('when another key asks for a job, it answers 404', async () => {
    const accepted = await post<AcceptedJobAnswer>(
      '/items/bulk',
      { items: [item('OWN-1')] },
      { prefer: 'respond-async' },
    );
    acceptedJobs.push(accepted.body.jobId);
    const otherKey = (await createApiKey(ctx, { tenantId: await defaultTenantId(ctx) })).rawKey;

    const response = await request(gateway.url, 'GET', accepted.body.statusUrl, { headers: { 'x-api-key': otherKey } });

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
  });

  it('when no worker runs, the call answers 202 after BULK_SYNC_TIMEOUT_MS and the job completes once a worker is back', async () => {
    await worker.close();
    const impatient = await ctx.startGateway({ BULK_SYNC_TIMEOUT_MS: '300' });

    const response = await post<AcceptedJobAnswer>(
      '/items/bulk',
      { items: [item('LATE-1'), item('LATE-2')] },
      {},
      impatient,
    );

    expect(response.status).toBe(202);
    acceptedJobs.push(response.body.jobId);
    const queued = await request<JobStateAnswer>(impatient.url, 'GET', response.body.statusUrl, {
      headers: { 'x-api-key': key },
    });
    expect(queued.body.data).toEqual({
      jobId: response.body.jobId,
      state: 'queued',
      result: null,
      requestId: response.body.requestId,
    });
    expect(await countItems('LATE-')).toBe(0);

    worker = await ctx.startIngestWorker();
    const done = await waitFor(
      () => request<JobStateAnswer>(impatient.url, 'GET', response.body.statusUrl, { headers: { 'x-api-key': key } }),
      (answer) => answer.body.data?.state === 'completed',
    );
    expect(done.body.data?.result).toMatchObject({ status: 'success', created: 2 });
    expect(await countItems('LATE-')).toBe(2);
  });

  it('when a call was answered 202, its end is told by one bulk.completed with its counts; a call answered 200 or 207 sends none', async () => {
    // The events as the outbox holds them (the feed lists what the relay has passed on; no relay runs here).
    const told = await waitFor(
      () =>
        ctx.runtime.db.sequelize.query<{ data: JsonNode }>(
          "SELECT data FROM events WHERE event = 'bulk.completed' ORDER BY id",
          { type: QueryTypes.SELECT },
        ),
      (events) => events.length >= acceptedJobs.length,
      20_000,
      'a bulk.completed for every call answered 202',
    );

    expect(told.map((event) => String(event.data.jobId)).sort()).toEqual([...acceptedJobs].sort());
    const late = told.find((event) => String(event.data.jobId) === acceptedJobs[acceptedJobs.length - 1])!;
    expect(late.data).toEqual({
      jobId: acceptedJobs[acceptedJobs.length - 1],
      entity: 'items',
      state: 'completed',
      status: 'success',
      total: 2,
      created: 2,
      updated: 0,
      failed: 0,
      statusUrl: `${BASE}/jobs/${acceptedJobs[acceptedJobs.length - 1]}`,
      tenantId: await defaultTenantId(ctx),
    });
  });
});
