import {
  TEST_ADMIN,
  type AcceptedJobAnswer,
  type JobStateAnswer,
  createApiKey,
  createMasterData,
  createTestContext,
  defaultTenantId,
  loginAs,
  request,
  scrapeMetrics,
  startPostgresReplication,
  waitFor,
  type JsonNode,
  type PrivateReplication,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';
const MAX_LAG_SECONDS = 2;
const MAX_WAIT_MS = 50;

// A primary and a hot standby of this file's own, the gateway reading inquiries and lists from the standby.
// Which server answered is read from the gateway's metrics (wms_db_reads_total by pool and reason), the way
// an operator would, never from the answers.
describe('reads from a PostgreSQL read replica', () => {
  let servers: PrivateReplication;
  let ctx: TestContext;
  let gateway: TestGateway;
  let tenantId: string;
  let writerKey: string;
  let readerKey: string;
  let replica: { replica: string };

  beforeAll(async () => {
    servers = await startPostgresReplication();
    ctx = await createTestContext('read-replicas', {}, { databaseServerUrl: servers.primary.url('postgres') });
    gateway = await ctx.startGateway({
      DATABASE_READ_URLS: servers.standbyUrl(ctx.config.databaseUrl),
      READ_REPLICA_MAX_WAIT_MS: String(MAX_WAIT_MS),
      READ_REPLICA_MAX_LAG_SECONDS: String(MAX_LAG_SECONDS),
    });
    tenantId = await defaultTenantId(ctx);
    writerKey = (await createApiKey(ctx, { tenantId, name: 'writer' })).rawKey;
    readerKey = (await createApiKey(ctx, { tenantId, name: 'reader' })).rawKey;
    await createMasterData(ctx, tenantId, { items: [{ sku: 'SEEDED', name: 'Seeded item' }] });
    replica = { replica: `127.0.0.1:${servers.standby.port}` };
    await waitFor(
      async () => (await metric('wms_db_replica_in_rotation', replica)) === 1,
      20_000,
      'replica in rotation',
    );
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await servers?.stop();
  });

  const metric = async (name: string, labels: Record<string, string> = {}) =>
    (await scrapeMetrics(gateway.url)).value(name, labels);
  const reads = (pool: 'primary' | 'replica', reason: string) => metric('wms_db_reads_total', { pool, reason });

  const writeItem = (key: string, sku: string, name: string) =>
    request(gateway.url, 'POST', `${BASE}/items`, {
      body: { sku, name, baseUomCode: 'EA' },
      headers: { 'x-api-key': key },
    });
  const inquire = (key: string, sku: string) =>
    request<{ data?: JsonNode }>(gateway.url, 'GET', `${BASE}/stock?sku=${encodeURIComponent(sku)}`, {
      headers: { 'x-api-key': key },
    });

  /** Until the standby has replayed everything the primary has written so far. */
  async function standbyCaughtUp(): Promise<void> {
    const [{ lsn }] = await servers.primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
    await waitFor(
      async () => {
        const [row] = await servers.standby.query<{ done: boolean }>(
          `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS done`,
        );
        return row!.done;
      },
      10_000,
      'the standby to replay the primary',
    );
  }

  it('a caller with no recent write reads from the replica', async () => {
    await standbyCaughtUp();
    const before = await reads('replica', 'no_recent_write');

    const answer = await inquire(readerKey, 'SEEDED');

    expect(answer.status).toBe(200);
    expect(answer.body.data!.itemName).toBe('Seeded item');
    expect(await reads('replica', 'no_recent_write')).toBe(before + 1);
  });

  it('a write followed at once by a read from the same key sees the write, every time', async () => {
    const unaware = await reads('replica', 'no_recent_write');

    for (let round = 0; round < 20; round += 1) {
      const sku = `RYW-${round % 4}`;
      const written = await writeItem(writerKey, sku, `version ${round}`);
      const answer = await inquire(writerKey, sku);

      expect(written.status).toBe(200);
      expect(answer.status).toBe(200);
      expect(answer.body.data!.itemName).toBe(`version ${round}`);
    }
    // None of the writer's reads was routed as if it had not written.
    expect(await reads('replica', 'no_recent_write')).toBe(unaware);
  });

  it("a user's admin write is in that user's next list", async () => {
    const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);

    const created = await request<{ id: string }>(gateway.url, 'POST', '/api/v1/api-keys', {
      token,
      body: { name: 'made by an admin', scopes: ['read'], tenantId },
    });
    const listed = await request<Array<{ id: string }>>(gateway.url, 'GET', '/api/v1/api-keys', { token });

    expect(created.status).toBe(201);
    expect(listed.status).toBe(200);
    expect(listed.body.map((key) => key.id)).toContain(created.body.id);
  });

  it("a paused replay sends the writer's reads to the primary after the bound, and the lag then leaves the replica out", async () => {
    await servers.standby.query('SELECT pg_wal_replay_pause()');
    try {
      const waitedOut = await reads('primary', 'waited_out');
      await writeItem(writerKey, 'PAUSED', 'written while paused');

      const started = Date.now();
      const answer = await inquire(writerKey, 'PAUSED');
      const tookMs = Date.now() - started;

      expect(answer.status).toBe(200);
      expect(answer.body.data!.itemName).toBe('written while paused');
      expect(await reads('primary', 'waited_out')).toBe(waitedOut + 1);
      expect(tookMs).toBeGreaterThanOrEqual(MAX_WAIT_MS);

      await waitFor(
        async () => (await metric('wms_db_replica_in_rotation', replica)) === 0,
        MAX_LAG_SECONDS * 1000 + 10_000,
        'the lagging replica left out',
      );
      expect(await metric('wms_db_replica_lag_seconds', replica)).toBeGreaterThan(MAX_LAG_SECONDS);
      const noReplica = await reads('primary', 'no_replica');
      const fresh = await inquire(readerKey, 'PAUSED');
      expect(fresh.status).toBe(200);
      expect(fresh.body.data!.itemName).toBe('written while paused');
      expect(await reads('primary', 'no_replica')).toBe(noReplica + 1);
    } finally {
      await servers.standby.query('SELECT pg_wal_replay_resume()');
    }

    await waitFor(async () => (await metric('wms_db_replica_in_rotation', replica)) === 1, 15_000, 'replica back');
    expect(await metric('wms_db_replica_lag_seconds', replica)).toBe(0);
  });

  it("a file import's rows are in the importing key's next read, though the replica has not replayed them", async () => {
    const key = (await createApiKey(ctx, { tenantId, name: 'importer' })).rawKey;
    const line = JSON.stringify({ sku: 'IMPORTED-1', name: 'written by an import', baseUomCode: 'EA' });
    const uploaded = await fetch(`${gateway.url}${BASE}/imports?entity=items`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/x-ndjson' },
      body: `${line}\n`,
    });
    const accepted = (await uploaded.json()) as AcceptedJobAnswer;
    expect(uploaded.status).toBe(202);
    // The replica has the upload (its staged rows), then replays nothing more: only the worker's chunk is missing.
    await standbyCaughtUp();
    await servers.standby.query('SELECT pg_wal_replay_pause()');
    const worker = await ctx.startIngestWorker({ DATABASE_READ_URLS: servers.standbyUrl(ctx.config.databaseUrl) });
    try {
      await waitFor(
        () => request<JobStateAnswer>(gateway.url, 'GET', accepted.statusUrl, { headers: { 'x-api-key': key } }),
        (answer) => answer.body.data?.state === 'completed',
        30_000,
        'the import completed',
      );
      const fromPrimary = await metric('wms_db_reads_total', { pool: 'primary' });

      const answer = await inquire(key, 'IMPORTED-1');

      expect(answer.status).toBe(200);
      expect(answer.body.data!.itemName).toBe('written by an import');
      expect(await metric('wms_db_reads_total', { pool: 'primary' })).toBe(fromPrimary + 1);
    } finally {
      await worker.close();
      await servers.standby.query('SELECT pg_wal_replay_resume()');
    }
  });

  it("a bulk job the ingest worker finishes after a 202 is in the key's next read, though the replica has not replayed it", async () => {
    const key = (await createApiKey(ctx, { tenantId, name: 'bulk writer' })).rawKey;
    const accepted = await request<AcceptedJobAnswer>(gateway.url, 'POST', `${BASE}/items/bulk`, {
      body: { items: [{ sku: 'BULK-1', name: 'written by the worker', baseUomCode: 'EA' }] },
      headers: { 'x-api-key': key, Prefer: 'respond-async' },
    });
    expect(accepted.status).toBe(202);
    // The replica has the gateway's side of the call (the job row), then replays nothing more.
    await standbyCaughtUp();
    await servers.standby.query('SELECT pg_wal_replay_pause()');
    try {
      await ctx.startIngestWorker({ DATABASE_READ_URLS: servers.standbyUrl(ctx.config.databaseUrl) });
      await waitFor(
        () => request<JobStateAnswer>(gateway.url, 'GET', accepted.body.statusUrl, { headers: { 'x-api-key': key } }),
        (answer) => answer.body.data?.state === 'completed',
        20_000,
        'the bulk job completed',
      );
      const fromPrimary = await metric('wms_db_reads_total', { pool: 'primary' });

      const answer = await inquire(key, 'BULK-1');

      expect(answer.status).toBe(200);
      expect(answer.body.data!.itemName).toBe('written by the worker');
      // Waited out, or the replica already left out for its lag: either way, not read from the replica.
      expect(await metric('wms_db_reads_total', { pool: 'primary' })).toBe(fromPrimary + 1);
    } finally {
      await servers.standby.query('SELECT pg_wal_replay_resume()');
    }
  });

  it('a stopped standby changes nothing a client sees: reads answer from the primary, and it rejoins once started', async () => {
    await servers.standby.stop();
    try {
      for (let round = 0; round < 5; round += 1) {
        const answer = await inquire(readerKey, 'SEEDED');
        expect(answer.status).toBe(200);
        expect(answer.body.data!.itemName).toBe('Seeded item');
      }
      const written = await writeItem(writerKey, 'WHILE-DOWN', 'written while the standby is down');
      const answer = await inquire(writerKey, 'WHILE-DOWN');
      expect(written.status).toBe(200);
      expect(answer.status).toBe(200);
      expect(answer.body.data!.itemName).toBe('written while the standby is down');
      // The checks find it not answering: out of rotation, its lag no longer reported.
      const lagSeries = `wms_db_replica_lag_seconds{replica="${replica.replica}"}`;
      await waitFor(async () => !(await scrapeMetrics(gateway.url)).text.includes(lagSeries), 10_000, 'no lag series');
      expect(await metric('wms_db_replica_in_rotation', replica)).toBe(0);
    } finally {
      await servers.standby.start();
    }

    await waitFor(async () => (await metric('wms_db_replica_in_rotation', replica)) === 1, 20_000, 'replica back');
    await standbyCaughtUp();
    // The tenant's write while the standby was down is replayed now (or its position expired meanwhile).
    const before = await metric('wms_db_reads_total', { pool: 'replica' });
    const answer = await inquire(readerKey, 'WHILE-DOWN');
    expect(answer.status).toBe(200);
    expect(await metric('wms_db_reads_total', { pool: 'replica' })).toBe(before + 1);
  });
});
