import { randomUUID } from 'node:crypto';
import {
  createApiKey,
  createTestContext,
  defaultTenantId,
  request,
  startAppProcess,
  startRedisServer,
  waitFor,
  type AcceptedJobAnswer,
  type AppProcess,
  type HttpResponse,
  type JobStateAnswer,
  type PrivateRedis,
  type TestContext,
} from '@wms/testing';

// An operator's worst day for bulk jobs, with the built apps as processes of their own over a private
// Redis (never the shared one): nothing a 202 or a 200 accepted is lost, no entry is written twice, and
// the processes recover without a restart.

const BASE = '/api/v1/integration/v1';
const SERVICE_APPLICATION = 'wms-under-test';
const ENTRIES = 100;
/** A 200/207 bulk envelope, or (in the same answer type) a 202's. */
interface BulkAnswer {
  status: string;
  created?: number;
  updated?: number;
}
const item = (sku: string) => ({ sku, name: `Item ${sku}`, baseUomCode: 'EA' });
const itemsOf = (prefix: string, call: number) =>
  Array.from({ length: ENTRIES }, (_, n) => item(`${prefix}-${call}-${n}`));

describe('bulk jobs survive crashes and outages', () => {
  let ctx: TestContext;
  let redis: PrivateRedis;
  let env: NodeJS.ProcessEnv;
  let key: string;
  const started: AppProcess[] = [];

  beforeAll(async () => {
    ctx = await createTestContext('bulk-faults');
    redis = await startRedisServer();
    // The processes' connections carry a name of their own, so the test can terminate exactly those.
    env = {
      ...ctx.env,
      DATABASE_URL: `${ctx.env.DATABASE_URL}?application_name=${SERVICE_APPLICATION}`,
      REDIS_URL: redis.url,
      LOG_LEVEL: 'warn',
    };
    key = (await createApiKey(ctx, { tenantId: await defaultTenantId(ctx) })).rawKey;
    // Every row version written to items is logged: a second write of an entry cannot hide.
    await ctx.runtime.db.sequelize.query(`
      CREATE TABLE write_log (sku text NOT NULL);
      CREATE FUNCTION log_item_write() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO write_log VALUES (NEW.sku); RETURN NEW; END $$;
      CREATE TRIGGER items_write_log AFTER INSERT OR UPDATE ON items FOR EACH ROW EXECUTE FUNCTION log_item_write();
    `);
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled(started.map((app) => app.kill()));
    await redis?.stop();
    await ctx?.close();
  });

  async function start(app: 'gateway' | 'ingest-worker', overrides: Record<string, string> = {}) {
    const process = await startAppProcess(app, { ...env, ...overrides });
    started.push(process);
    return process;
  }

  const bulk = (gateway: AppProcess, items: unknown[], headers: Record<string, string> = {}) =>
    request<AcceptedJobAnswer & BulkAnswer>(gateway.url, 'POST', `${BASE}/items/bulk`, {
      body: { items },
      headers: { 'x-api-key': key, ...headers },
    });

  async function scalar(sql: string, bind: unknown[] = []): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query(sql, { bind })) as [Array<{ n: number }>, unknown];
    return rows[0]!.n;
  }
  const stored = (prefix: string) => scalar('SELECT count(*)::int AS n FROM items WHERE sku LIKE $1', [`${prefix}-%`]);
  const writes = (prefix: string) =>
    scalar('SELECT count(*)::int AS n FROM write_log WHERE sku LIKE $1', [`${prefix}-%`]);

  /** Waits until every listed job is completed, then answers their results as GET /jobs shows them. */
  async function completed(gateway: AppProcess, jobIds: string[]): Promise<unknown[]> {
    const results: unknown[] = [];
    for (const jobId of jobIds) {
      let job: HttpResponse<JobStateAnswer> | undefined;
      await waitFor(
        async () => {
          job = await request<JobStateAnswer>(gateway.url, 'GET', `${BASE}/jobs/${jobId}`, {
            headers: { 'x-api-key': key },
          });
          return job.body?.data?.state === 'completed';
        },
        45_000,
        `job ${jobId} to complete`,
      );
      results.push(job!.body.data!.result);
    }
    return results;
  }

  it('when the ingest worker is killed with SIGKILL mid-job, another takes the job up and writes every entry once with exact counts', async () => {
    const gateway = await start('gateway');
    const doomed = await start('ingest-worker', { INGEST_CONCURRENCY: '1' });
    // The first job's statement waits on a row lock the test holds, so the worker is inside it when killed.
    const blocker = await ctx.runtime.db.sequelize.transaction();
    await ctx.runtime.db.sequelize.query(
      `INSERT INTO items (tenant_id, sku, name, base_uom_code) VALUES ($1, 'KILL-0-0', 'Blocker', 'EA')`,
      { bind: [await defaultTenantId(ctx)], transaction: blocker },
    );
    const accepted = [];
    for (let call = 0; call < 6; call += 1)
      accepted.push(await bulk(gateway, itemsOf('KILL', call), { prefer: 'respond-async' }));
    const waiting = bulk(gateway, itemsOf('KILL', 6));
    await waitFor(
      async () =>
        (await scalar(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND application_name = $1`,
          [SERVICE_APPLICATION],
        )) > 0,
      20_000,
      'the worker to wait inside its first job',
    );

    await doomed.kill('SIGKILL');
    await blocker.rollback();
    await start('ingest-worker');

    expect(accepted.map((answer) => answer.status)).toEqual(Array(6).fill(202));
    const results = await completed(
      gateway,
      accepted.map((answer) => answer.body.jobId),
    );
    for (const result of results) expect(result).toMatchObject({ status: 'success', created: ENTRIES, updated: 0 });
    expect((await waiting).body).toMatchObject({ status: 'success', created: ENTRIES, updated: 0 });
    expect(await stored('KILL')).toBe(7 * ENTRIES);
    expect(await writes('KILL')).toBe(7 * ENTRIES);
  }, 120_000);

  it('when Redis is killed and restarted empty while bulk jobs wait, every accepted job is dispatched again and written once', async () => {
    const gateway = await start('gateway');
    const accepted = [];
    for (let call = 0; call < 5; call += 1)
      accepted.push(await bulk(gateway, itemsOf('FLUSH', call), { prefer: 'respond-async' }));

    await redis.kill();
    // Accepted while Redis is away: stored in PostgreSQL, handed to the queue once Redis is back.
    accepted.push(await bulk(gateway, itemsOf('FLUSH', 5), { prefer: 'respond-async' }));
    await redis.restart();
    await start('ingest-worker');

    expect(accepted.map((answer) => answer.status)).toEqual(Array(6).fill(202));
    const results = await completed(
      gateway,
      accepted.map((answer) => answer.body.jobId),
    );
    for (const result of results) expect(result).toMatchObject({ status: 'success', created: ENTRIES, updated: 0 });
    expect(await stored('FLUSH')).toBe(6 * ENTRIES);
    expect(await writes('FLUSH')).toBe(6 * ENTRIES);
  }, 120_000);

  it('when PostgreSQL terminates the service connections under bulk load, retried calls lose and double nothing and the processes recover', async () => {
    // A short bulk wait keeps the claim lease of a call whose gateway lost its connection short.
    const gateway = await start('gateway', { BULK_SYNC_TIMEOUT_MS: '5000' });
    // A client retries a call that failed with its Idempotency-Key, as integrators are told to.
    const call = (index: number) => {
      const idempotencyKey = randomUUID();
      return waitFor(
        () => bulk(gateway, itemsOf('TERM', index), { 'idempotency-key': idempotencyKey }).catch(() => undefined),
        (answer): answer is HttpResponse<AcceptedJobAnswer & BulkAnswer> =>
          !!answer && answer.status < 500 && answer.status !== 409,
        { timeoutMs: 90_000, intervalMs: 200, what: `call ${index} to be answered` },
      );
    };
    const calls = Array.from({ length: 12 }, (_, index) => call(index));
    let terminated = 0;
    for (let round = 0; round < 3; round += 1) {
      await waitFor(
        async () => (await scalar(`SELECT count(*)::int AS n FROM bulk_jobs WHERE state = 'completed'`)) >= round * 3,
        30_000,
        'bulk jobs to complete between terminations',
      );
      terminated += await scalar(
        `SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = $1) AS killed`,
        [SERVICE_APPLICATION],
      );
    }
    // What the gateway said (warnings and errors), should a call never be answered.
    const answers = await Promise.all(calls).catch((error: unknown) => {
      const state = gateway.child.exitCode === null ? 'running' : `exited with ${gateway.child.exitCode}`;
      throw new Error(`${String(error)}\n--- gateway (${state}) output ---\n${gateway.output().slice(-8_000)}`);
    });
    expect(terminated).toBeGreaterThan(0);
    const jobIds = answers.filter((answer) => answer.status === 202).map((answer) => answer.body.jobId);
    await completed(gateway, jobIds);

    for (const answer of answers.filter((answer) => answer.status !== 202))
      expect(answer.body).toMatchObject({ status: 'success', created: ENTRIES, updated: 0 });
    expect(await stored('TERM')).toBe(12 * ENTRIES);
    expect(await writes('TERM')).toBe(12 * ENTRIES);
    const after = await bulk(gateway, itemsOf('TERM-AFTER', 0));
    expect(after.body).toMatchObject({ status: 'success', created: ENTRIES });
  }, 120_000);
});
