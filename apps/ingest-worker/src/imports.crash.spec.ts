import {
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  defaultTenantId,
  request,
  startAppProcess,
  waitFor,
  type AppProcess,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';
const ROWS = 100_000;
/** Every 997th record names a type that does not exist: a row error, listed by its line. */
const BAD_EVERY = 997;

interface ImportStatus {
  jobId: string;
  state: string;
  total: number;
  processed: number;
  created: number;
  updated: number;
  failed: number;
  errorsUrl: string;
}

function partnersCsv(): { file: string; badLines: number[] } {
  const badLines: number[] = [];
  const records = ['code,name,type,contact.email'];
  for (let index = 1; index <= ROWS; index += 1) {
    const bad = index % BAD_EVERY === 0;
    // Line 1 is the header: record `index` is on line index + 1.
    if (bad) badLines.push(index + 1);
    records.push(`P-${index},Partner ${index},${bad ? 'alien' : 'supplier'},p${index}@example.test`);
  }
  return { file: `${records.join('\n')}\n`, badLines };
}

describe('a file import written by ingest worker processes', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let worker: AppProcess | undefined;
  let key: string;

  beforeAll(async () => {
    ctx = await createTestContext('imports-crash', { IMPORT_CHUNK_ROWS: '2000' });
    gateway = await ctx.startGateway();
    key = (await createApiKey(ctx, { tenantId: await defaultTenantId(ctx) })).rawKey;
    // Counts every row version written to partners, so a row written twice cannot hide.
    await ctx.runtime.db.sequelize.query(`
      CREATE TABLE write_log (code text);
      CREATE FUNCTION log_partner_write() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO write_log VALUES (NEW.code); RETURN NEW; END $$;
      CREATE TRIGGER partners_write_log AFTER INSERT OR UPDATE ON partners FOR EACH ROW EXECUTE FUNCTION log_partner_write();
    `);
  }, 120_000);
  afterAll(async () => {
    await worker?.kill();
    await ctx.close();
  });

  const startWorker = async () => (worker = await startAppProcess('ingest-worker', ctx.env));

  async function upload(file: string): Promise<string> {
    const response = await fetch(`${gateway.url}${BASE}/imports?entity=partners`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'text/csv' },
      body: file,
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as { jobId: string }).jobId;
  }

  const status = async (jobId: string) =>
    (
      await request<{ data: ImportStatus }>(gateway.url, 'GET', `${BASE}/jobs/${jobId}`, {
        headers: { 'x-api-key': key },
      })
    ).body.data;

  async function count(sql: string): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query(sql)) as [{ n: number }[], unknown];
    return rows[0]!.n;
  }

  it('when the worker is killed with SIGKILL midway and started again, every row is written once and the counts are exact', async () => {
    const { file, badLines } = partnersCsv();
    const jobId = await upload(file);
    await startWorker();

    await waitFor(
      () => status(jobId),
      (job) => job.processed >= 10_000,
      120_000,
      'a part of the file to be written',
    );
    await worker!.kill('SIGKILL');
    const halfway = await status(jobId);
    expect(halfway.state).toBe('running');
    expect(halfway.processed).toBeLessThan(ROWS);
    await startWorker();
    const done = await waitFor(
      () => status(jobId),
      (job) => job.state !== 'running',
      240_000,
      'the import to finish',
    );

    expect(done).toMatchObject({
      state: 'completed',
      total: ROWS,
      processed: ROWS,
      created: ROWS - badLines.length,
      updated: 0,
      failed: badLines.length,
    });
    expect(await count(`SELECT count(*)::int AS n FROM partners WHERE code LIKE 'P-%'`)).toBe(ROWS - badLines.length);
    expect(await count('SELECT count(*)::int AS n FROM write_log')).toBe(ROWS - badLines.length);
    const errors = (await (await fetch(`${gateway.url}${done.errorsUrl}`, { headers: { 'x-api-key': key } })).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { line: number; key: string; error: { code: string } });
    expect(errors.map((error) => error.line)).toEqual(badLines);
    expect(errors[0]).toMatchObject({ key: `P-${BAD_EVERY}`, error: { code: 'VALIDATION_FAILED' } });
  }, 400_000);

  it("when the same file is imported again while another tenant's bulk call comes in, the rows count as updated and the call answers within a second", async () => {
    const { file, badLines } = partnersCsv();
    const other = await createTenantWithWarehouse(ctx);
    const otherKey = (await createApiKey(ctx, { tenantId: other.tenant.id })).rawKey;
    const jobId = await upload(file);
    await waitFor(
      () => status(jobId),
      (job) => job.processed > 0,
      60_000,
      'the import to run',
    );

    const timings: number[] = [];
    for (let call = 0; call < 3; call += 1) {
      const items = Array.from({ length: 10 }, (_unused, index) => ({
        sku: `B-${call}-${index}`,
        name: 'B',
        baseUomCode: 'EA',
      }));
      const started = performance.now();
      const answer = await request(gateway.url, 'POST', `${BASE}/items/bulk`, {
        body: { items },
        headers: { 'x-api-key': otherKey },
      });
      timings.push(performance.now() - started);
      expect(answer.status).toBe(200);
    }
    const during = await status(jobId);
    const done = await waitFor(
      () => status(jobId),
      (job) => job.state !== 'running',
      240_000,
      'the import to finish',
    );

    expect(during.state).toBe('running');
    expect(Math.max(...timings)).toBeLessThan(1_000);
    expect(done).toMatchObject({
      state: 'completed',
      created: 0,
      updated: ROWS - badLines.length,
      failed: badLines.length,
    });
    expect(await count('SELECT count(*)::int AS n FROM write_log')).toBe(2 * (ROWS - badLines.length));
  }, 400_000);
});
