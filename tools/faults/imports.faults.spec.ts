import {
  createApiKey,
  createTestContext,
  defaultTenantId,
  startAppProcess,
  startRedisServer,
  waitFor,
  type AppProcess,
  type PrivateRedis,
  type TestContext,
} from '@wms/testing';

// File imports on an operator's bad day, with the built apps as processes of their own over a private
// Redis (never the shared one): Redis restarted empty before and while the chunks run loses no chunk, and
// no row is written twice.

const BASE = '/api/v1/integration/v1';
const CHUNK_ROWS = 100;
const ROWS = 3_000;

describe('file imports survive a Redis that loses its data', () => {
  let ctx: TestContext;
  let redis: PrivateRedis;
  let env: NodeJS.ProcessEnv;
  let key: string;
  const started: AppProcess[] = [];

  beforeAll(async () => {
    ctx = await createTestContext('imports-faults');
    redis = await startRedisServer();
    env = { ...ctx.env, REDIS_URL: redis.url, IMPORT_CHUNK_ROWS: String(CHUNK_ROWS), LOG_LEVEL: 'warn' };
    key = (await createApiKey(ctx, { tenantId: await defaultTenantId(ctx) })).rawKey;
    // Every row version written to items is logged: a second write of a row cannot hide.
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

  async function start(app: 'gateway' | 'ingest-worker') {
    const process = await startAppProcess(app, env);
    started.push(process);
    return process;
  }

  async function scalar(sql: string, bind: unknown[] = []): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query(sql, { bind })) as [Array<{ n: number }>, unknown];
    return rows[0]!.n;
  }
  const chunksDone = (importId: string) =>
    scalar('SELECT count(*)::int AS n FROM import_chunks WHERE import_id = $1 AND done', [importId]);

  it('when Redis restarts empty before the worker starts and again while it writes, every row is written once', async () => {
    const gateway = await start('gateway');
    const file = Array.from({ length: ROWS }, (_, n) =>
      JSON.stringify({ sku: `IMP-${n}`, name: `Imported ${n}`, baseUomCode: 'EA' }),
    ).join('\n');
    const upload = await fetch(`${gateway.url}${BASE}/imports?entity=items`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/x-ndjson' },
      body: file,
    });
    const { jobId } = (await upload.json()) as { jobId: string };

    // The chunks the upload queued are lost with Redis; the worker's dispatcher queues them again.
    await redis.kill();
    await redis.restart();
    await start('ingest-worker');
    await waitFor(
      () => chunksDone(jobId),
      (done) => done >= 3,
      60_000,
      'a few chunks to be written',
    );
    // And lost again while they run: the chunks in flight commit, the others are queued again.
    await redis.kill();
    await redis.restart();
    await waitFor(
      () => scalar(`SELECT count(*)::int AS n FROM imports WHERE id = $1 AND state = 'completed'`, [jobId]),
      (completed) => completed === 1,
      120_000,
      'the import to complete',
    );

    expect(upload.status).toBe(202);
    expect(await chunksDone(jobId)).toBe(ROWS / CHUNK_ROWS);
    expect(await scalar(`SELECT count(*)::int AS n FROM items WHERE sku LIKE 'IMP-%'`)).toBe(ROWS);
    expect(await scalar(`SELECT count(*)::int AS n FROM write_log WHERE sku LIKE 'IMP-%'`)).toBe(ROWS);
    expect(
      await scalar('SELECT coalesce(sum(created), 0)::int AS n FROM import_chunks WHERE import_id = $1', [jobId]),
    ).toBe(ROWS);
  }, 240_000);
});
