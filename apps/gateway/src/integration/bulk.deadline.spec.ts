import pg from 'pg';
import { within } from '@wms/platform';
import {
  createApiKey,
  createTestContext,
  defaultTenantId,
  request,
  waitFor,
  type AcceptedJobAnswer,
  type JobStateAnswer,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

describe("a bulk call's deadline", () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let key: string;

  beforeAll(async () => {
    ctx = await createTestContext('bulk-deadline');
    // No ingest worker runs: the job stays queued, and the call's wait runs out.
    gateway = await ctx.startGateway({ BULK_SYNC_TIMEOUT_MS: '1500' });
    key = (await createApiKey(ctx, { tenantId: await defaultTenantId(ctx) })).rawKey;
  });
  afterAll(() => ctx.close());

  it("when another session holds the job's row lock as the wait runs out, the call still answers 202 with its statusUrl", async () => {
    // Arrange: a session that locks the job's row as soon as the call has stored it, and keeps it.
    const holder = new pg.Client({ connectionString: ctx.config.databaseUrl });
    await holder.connect();
    try {
      const call = request<AcceptedJobAnswer>(gateway.url, 'POST', `${BASE}/items/bulk`, {
        body: { items: [{ sku: 'HELD-1', name: 'Held', baseUomCode: 'EA' }] },
        headers: { 'x-api-key': key },
      });
      const stored = await waitFor(
        async () => (await holder.query<{ id: string }>('SELECT id FROM bulk_jobs')).rows,
        (rows) => rows.length === 1,
        10_000,
        'the bulk call to store its job',
      );
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM bulk_jobs WHERE id = $1 FOR UPDATE', [stored[0]!.id]);

      // Act: a call that waited on the lock would never answer while it is held (a deadlock detector).
      const response = await within(call, 20_000);

      // Assert: the 202 is true: the job is stored, queued, and its statusUrl answers.
      expect(response.status).toBe(202);
      expect(response.body).toMatchObject({ status: 'accepted', jobId: stored[0]!.id });
      const status = await request<JobStateAnswer>(gateway.url, 'GET', response.body.statusUrl, {
        headers: { 'x-api-key': key },
      });
      expect(status.body.data).toMatchObject({ jobId: stored[0]!.id, state: 'queued' });
      // The lock was held when the 202 was decided: the job is not marked yet.
      const marked = await holder.query<{ answered: boolean }>(
        'SELECT answered_accepted AS answered FROM bulk_jobs WHERE id = $1',
        [stored[0]!.id],
      );
      expect(marked.rows).toEqual([{ answered: false }]);
    } finally {
      await holder.query('ROLLBACK');
    }
    try {
      // Once the lock is let go, the gateway marks the job after its answer: the job will tell its end.
      await waitFor(
        async () =>
          (await holder.query<{ answered: boolean }>('SELECT answered_accepted AS answered FROM bulk_jobs')).rows,
        (rows) => rows[0]?.answered === true,
        30_000,
        'the job to be marked answered 202',
      );
    } finally {
      await holder.end();
    }
  });
});
