import { QueryTypes } from 'sequelize';
import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import { createIngestQueue, type IngestJobName, type IngestQueue } from './ingest.contract.js';
import {
  closeRedis,
  createLogger,
  createRedis,
  createSequelize,
  describeDatabaseUrl,
  queuePrefix,
  unitOfWork,
  type Database,
} from '@wms/platform';
import { createBulkJobDispatcher } from './bulk-job-dispatcher.js';
import { BulkJobEnds } from './bulk-job-ends.js';
import { BulkJobRunner } from './bulk-job-runner.js';
import { BulkJobsRepository, type NewBulkJob } from './bulk-jobs.repository.js';
import {
  createApiKey,
  createMasterData,
  createTestContext,
  defaultTenantId,
  waitFor,
  type TestContext,
} from '@wms/testing';

const item = (sku: string, name = `Item ${sku}`) => ({ sku, name, baseUomCode: 'EA' });

/** A repository whose first storing of a result fails, as a worker killed between its write and its result would. */
class CrashAfterWrite extends BulkJobsRepository {
  crashes = 1;
  override async completeUntold(...args: Parameters<BulkJobsRepository['completeUntold']>) {
    if (this.crashes-- > 0) throw new Error('worker died');
    return super.completeUntold(...args);
  }
  override async complete(...args: Parameters<BulkJobsRepository['complete']>) {
    if (this.crashes-- > 0) throw new Error('worker died');
    return super.complete(...args);
  }
}

describe('bulk jobs stored in PostgreSQL', () => {
  let ctx: TestContext;
  let repository: BulkJobsRepository;
  let runner: BulkJobRunner;
  let ends: BulkJobEnds;
  let queue: IngestQueue;
  let tenantId: string;
  let apiKeyId: string;

  beforeAll(async () => {
    ctx = await createTestContext('bulk-jobs');
    repository = new BulkJobsRepository(ctx.runtime.db);
    ends = new BulkJobEnds(ctx.runtime.db, repository, ctx.services.events);
    runner = new BulkJobRunner(ctx.runtime.db, ctx.services.ingest, repository, ends);
    queue = createIngestQueue({ connection: ctx.runtime.redis, prefix: queuePrefix(ctx.config) });
    tenantId = await defaultTenantId(ctx);
    apiKeyId = (await createApiKey(ctx, { tenantId })).id;
    await createMasterData(ctx, tenantId, {
      items: [{ sku: 'ASN-ITEM' }],
      partners: [{ code: 'SUP', type: 'supplier' }],
    });
    // Counts every row version written to items and ASNs, so a second write of an entry cannot hide.
    await ctx.runtime.db.sequelize.query(`
      CREATE TABLE write_log (tbl text, key text);
      CREATE FUNCTION log_item_write() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO write_log VALUES ('items', NEW.sku); RETURN NEW; END $$;
      CREATE FUNCTION log_asn_write() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO write_log VALUES ('asns', NEW.reference_no); RETURN NEW; END $$;
      CREATE TRIGGER items_write_log AFTER INSERT OR UPDATE ON items FOR EACH ROW EXECUTE FUNCTION log_item_write();
      CREATE TRIGGER asns_write_log AFTER INSERT OR UPDATE ON asns FOR EACH ROW EXECUTE FUNCTION log_asn_write();
    `);
  });
  afterAll(async () => {
    await queue.close();
    await ctx.close();
  });

  const newJob = (entity: IngestJobName, entries: unknown[]): NewBulkJob => ({
    id: randomUUID(),
    entity,
    tenantId,
    apiKeyId,
    requestId: randomUUID(),
    entries,
  });

  async function writesOf(prefix: string): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query('SELECT count(*)::int AS n FROM write_log WHERE key LIKE $1', {
      bind: [`${prefix}%`],
    })) as [Array<{ n: number }>, unknown];
    return rows[0]!.n;
  }

  it('when one job runs five times at once, its entries are written once and every run reports the same result', async () => {
    await runner.run(await submitted(newJob('items', [item('ONCE-OLD')])));
    const job = newJob('items', [item('ONCE-1'), item('ONCE-2'), item('ONCE-OLD', 'Renamed'), { sku: 'ONCE-BAD' }]);
    await repository.submit(job);
    const writesBefore = await writesOf('ONCE-');

    const runs = await Promise.all(Array.from({ length: 5 }, () => runner.run(job.id)));

    expect(runs[0]!.result).toMatchObject({ status: 'partial', total: 4, created: 2, updated: 1 });
    for (const run of runs) expect(run.result).toEqual(runs[0]!.result);
    expect((await writesOf('ONCE-')) - writesBefore).toBe(3);
    expect(await repository.status(job.id)).toMatchObject({ state: 'completed', requestId: job.requestId });
  });

  it('when a run stops after its write, the next run writes nothing and reports what the first run did', async () => {
    const crashingRows = new CrashAfterWrite(ctx.runtime.db);
    const crashing = new BulkJobRunner(
      ctx.runtime.db,
      ctx.services.ingest,
      crashingRows,
      new BulkJobEnds(ctx.runtime.db, crashingRows, ctx.services.events),
    );
    const job = newJob('items', [item('HALF-1'), item('HALF-2')]);
    await repository.submit(job);

    await expect(crashing.run(job.id)).rejects.toThrow('worker died');
    expect(await repository.status(job.id)).toMatchObject({ state: 'written' });
    const rerun = await runner.run(job.id);

    expect(rerun.result).toMatchObject({ status: 'success', total: 2, created: 2, updated: 0 });
    expect(rerun.result.data.map((entry) => entry.status)).toEqual(['created', 'created']);
    expect(await writesOf('HALF-')).toBe(2);
  });

  it('when a job that writes in a transaction runs three times at once, its document is created once', async () => {
    const asn = {
      warehouseCode: 'MAIN',
      supplierCode: 'SUP',
      referenceNo: 'TX-ONCE-1',
      lines: [{ lineNo: 1, sku: 'ASN-ITEM', uomCode: 'EA', expectedQty: 5 }],
    };
    const job = newJob('asn', [asn]);
    await repository.submit(job);

    const runs = await Promise.all(Array.from({ length: 3 }, () => runner.run(job.id)));

    expect(runs[0]!.result).toMatchObject({ status: 'success', total: 1, created: 1 });
    for (const run of runs) expect(run.result).toEqual(runs[0]!.result);
    expect(await writesOf('TX-ONCE-')).toBe(1);
  });

  it('when a job has no row (purged, never stored), the run is refused and writes nothing', async () => {
    const job = newJob('items', [item('GONE-1')]);

    await expect(runner.run(job.id)).rejects.toThrow('is not stored');
    expect(await writesOf('GONE-')).toBe(0);
  });

  it('when Redis does not have a stored job, the dispatcher adds it; a job Redis still has is not added twice', async () => {
    const dispatcher = createBulkJobDispatcher(
      ctx.runtime.db,
      repository,
      ends,
      queue,
      createLogger({ level: 'silent', name: 'test-dispatcher' }),
    );
    const job = newJob('items', [item('LOST-1')]);
    await repository.submit(job);
    await repository.notDispatched(job.id);

    expect(await dispatcher.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await queue.getJobState(job.id)).toBe('waiting');
    expect(await dispatcher.runOnce(true)).toBe(0);

    // Redis loses it (a restart without data, a FLUSHALL): a recheck adds it again, with its request id.
    await (await queue.getJob(job.id))!.remove();
    expect(await dispatcher.runOnce(true)).toBeGreaterThanOrEqual(1);
    const again = await queue.getJob(job.id);
    expect(again?.data).toEqual({ tenantId, apiKeyId, requestId: job.requestId });
    await queue.obliterate({ force: true });
  });

  it("when a job's BullMQ job failed every attempt while its row is queued, the dispatcher ends it without waiting on its own lock", async () => {
    // Arrange: every lock wait of this database's new sessions gives up after 5 s, so a pass that waited on
    // a lock its own process holds fails instead of hanging (a deadlock detector, not a measure of speed).
    const { database } = describeDatabaseUrl(ctx.config.databaseUrl);
    await ctx.runtime.db.sequelize.query(`ALTER DATABASE "${database}" SET lock_timeout = '5s'`);
    const bounded: Database = { sequelize: createSequelize(ctx.config) };
    const boundedRows = new BulkJobsRepository(bounded);
    const dispatcher = createBulkJobDispatcher(
      bounded,
      boundedRows,
      new BulkJobEnds(bounded, boundedRows, ctx.services.events),
      queue,
      createLogger({ level: 'silent', name: 'test-dispatcher' }),
    );
    const job = newJob('items', [item('GAVE-UP-1')]);
    await repository.submit(job);
    await queue.add('items', { tenantId, apiKeyId, requestId: job.requestId }, { jobId: job.id });
    const connection = createRedis(ctx.config, 'worker', 'bulk-jobs-spec');
    const failing = new Worker(
      queue.name,
      async () => {
        throw new Error('every attempt fails');
      },
      { connection, prefix: queuePrefix(ctx.config) },
    );
    try {
      await waitFor(
        () => queue.getJobState(job.id),
        (state) => state === 'failed',
        30_000,
        'the job to fail its only attempt',
      );
    } finally {
      await failing.close();
      await closeRedis(connection);
    }
    await ctx.runtime.db.sequelize.query(
      "UPDATE bulk_jobs SET dispatched_at = now() - interval '1 hour' WHERE id = $1",
      { bind: [job.id] },
    );

    try {
      // Act
      await dispatcher.runOnce();

      // Assert
      expect(await repository.status(job.id)).toMatchObject({ state: 'failed' });
    } finally {
      await bounded.sequelize.close();
      await ctx.runtime.db.sequelize.query(`ALTER DATABASE "${database}" RESET lock_timeout`);
      await queue.obliterate({ force: true });
    }
  });

  it('when a job whose caller was answered 202 ends, bulk.completed is appended with its end; a caller answered its result is told nothing', async () => {
    const told = async (jobId: string) =>
      ctx.runtime.db.sequelize.query<{ data: Record<string, unknown> }>(
        "SELECT data FROM events WHERE event = 'bulk.completed' AND data->>'jobId' = $1",
        { bind: [jobId], type: QueryTypes.SELECT },
      );
    const asynchronous = { ...newJob('items', [item('TOLD-1'), { sku: 'TOLD-BAD' }]), lane: 'async' as const };
    const waited = newJob('items', [item('TOLD-2')]);
    const answered = newJob('items', [item('TOLD-3')]);
    const refused = { ...newJob('items', [item('TOLD-4')]), lane: 'async' as const };
    for (const job of [asynchronous, waited, answered, refused]) await repository.submit(job);
    // The gateway's wait for `waited` ran out (202); `answered` ended before, so marking it is refused.
    const markAnsweredAccepted = (id: string) =>
      unitOfWork(ctx.runtime.db, (work) => repository.markAnsweredAccepted(id, work), { lockTimeoutMs: 1_000 });
    expect(await markAnsweredAccepted(waited.id)).toBe(true);

    await runner.run(asynchronous.id);
    await runner.run(waited.id);
    await runner.run(answered.id);
    expect(await markAnsweredAccepted(answered.id)).toBe(false);
    await ends.fail(refused.id, 'the ingest queue gave the job up');

    expect((await told(asynchronous.id)).map((row) => row.data)).toEqual([
      {
        jobId: asynchronous.id,
        entity: 'items',
        state: 'completed',
        status: 'partial',
        total: 2,
        created: 1,
        updated: 0,
        failed: 1,
        statusUrl: `/api/v1/integration/v1/jobs/${asynchronous.id}`,
        tenantId,
      },
    ]);
    expect((await told(waited.id)).map((row) => row.data)).toMatchObject([{ state: 'completed', created: 1 }]);
    expect(await told(answered.id)).toEqual([]);
    expect((await told(refused.id)).map((row) => row.data)).toMatchObject([
      { state: 'failed', status: null, total: 0, created: 0, failed: 0 },
    ]);
    // A run of a job that had ended already tells nothing again.
    await runner.run(asynchronous.id);
    expect(await told(asynchronous.id)).toHaveLength(1);
  });

  it("when a synchronous job ended untold before its caller's 202 was marked, its end is told late, once", async () => {
    const told = async (jobId: string) =>
      ctx.runtime.db.sequelize.query<{ data: Record<string, unknown> }>(
        "SELECT data FROM events WHERE event = 'bulk.completed' AND data->>'jobId' = $1",
        { bind: [jobId], type: QueryTypes.SELECT },
      );
    const ended = newJob('items', [item('LATE-TOLD-1')]);
    const unfinished = newJob('items', [item('LATE-TOLD-2')]);
    await runner.run(await submitted(ended));
    await repository.submit(unfinished);

    const first = await ends.tellLate(ended.id);
    const again = await ends.tellLate(ended.id);

    expect([first, again]).toEqual([true, false]);
    expect((await told(ended.id)).map((row) => row.data)).toMatchObject([
      { jobId: ended.id, state: 'completed', status: 'success', created: 1 },
    ]);
    expect(await ends.tellLate(unfinished.id)).toBe(false);
    expect(await told(unfinished.id)).toEqual([]);
  });

  it('when a finished job is older than the retention, the purge deletes it and keeps unfinished ones', async () => {
    const finished = newJob('items', [item('PURGE-1')]);
    const waiting = newJob('items', [item('PURGE-2')]);
    await runner.run(await submitted(finished));
    await repository.submit(waiting);
    await ctx.runtime.db.sequelize.query(
      `UPDATE bulk_jobs SET created_at = now() - interval '2 hours',
              finished_at = CASE WHEN finished_at IS NULL THEN NULL ELSE now() - interval '2 hours' END
        WHERE id IN ($1, $2)`,
      { bind: [finished.id, waiting.id] },
    );

    await repository.purgeFinished(3_600);

    expect(await repository.status(finished.id)).toBeNull();
    expect(await repository.status(waiting.id)).toMatchObject({ state: 'queued' });
  });

  async function submitted(job: NewBulkJob): Promise<string> {
    await repository.submit(job);
    return job.id;
  }
});
