import { setTimeout as sleep } from 'node:timers/promises';
import { createApiKey, createTestContext, waitFor, type TestContext } from '@wms/testing';
import { createSequelize, type Database } from '../db/index.js';
import { IdempotencyService } from './idempotency.service.js';
import { requestFingerprint } from './request-fingerprint.js';

/** The Retry-After of a 503 DATABASE_UNAVAILABLE, which the typed client waits before its retry. */
const RETRY_AFTER_MS = 1_000;

// A pool of this file's own, whose connections the test terminates in PostgreSQL (pg_terminate_backend)
// the moment a statement is about to run on them: the release of a key meets a dead pooled connection, as
// right after a database switch.
describe('an Idempotency-Key given back after a 5xx answer', () => {
  let ctx: TestContext;
  let db: Database;
  let service: IdempotencyService;
  let owner: { apiKeyId: string };
  /** While set, each statement's connection is terminated before the statement runs on it. */
  let killNext = 0;
  let statementsOnDeadConnections = 0;

  beforeAll(async () => {
    ctx = await createTestContext('idempotency-release');
    db = { sequelize: createSequelize({ databaseUrl: ctx.config.databaseUrl, databasePoolMax: 2 }) };
    service = new IdempotencyService(db, { idempotencyTtlSeconds: 3_600, bulkSyncTimeoutMs: 30_000 });
    owner = { apiKeyId: (await createApiKey(ctx)).id };
    db.sequelize.addHook('beforeQuery', async (_options, query) => {
      if (killNext === 0) return;
      killNext -= 1;
      const pid = (query as unknown as { connection: { processID: number } }).connection.processID;
      await ctx.runtime.db.sequelize.query('SELECT pg_terminate_backend($1)', { bind: [pid] });
      await waitFor(
        async () => {
          const [rows] = await ctx.runtime.db.sequelize.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', {
            bind: [pid],
          });
          return rows.length === 0;
        },
        5_000,
        'the backend gone',
      );
      statementsOnDeadConnections += 1;
    });
  });
  afterAll(async () => {
    await db?.sequelize.close();
    await ctx?.close();
  });

  const fingerprint = requestFingerprint({
    method: 'POST',
    url: '/api/v1/integration/v1/items',
    bytes: '{"sku":"A"}',
    json: { value: { sku: 'A' } },
  });

  it('when its release meets a dead pooled connection, the retry after Retry-After claims the key', async () => {
    const first = await service.claim(owner, 'switch-1', fingerprint);
    if (first.kind !== 'claimed') throw new Error(`not claimed: ${first.kind}`);

    killNext = 1;
    await service.release(first.claim);
    await sleep(RETRY_AFTER_MS);
    const retry = await service.claim(owner, 'switch-1', fingerprint);

    expect(statementsOnDeadConnections).toBe(1);
    expect(retry.kind).toBe('claimed');
    // The same generation: a bulk job the first request enqueued under it is found again, not doubled.
    expect(retry.kind === 'claimed' && retry.claim.claimId).toBe(first.claim.claimId);
  });

  it('when every pooled connection it tries is dead, the key is still free for the retry', async () => {
    const first = await service.claim(owner, 'switch-2', fingerprint);
    if (first.kind !== 'claimed') throw new Error(`not claimed: ${first.kind}`);
    const before = statementsOnDeadConnections;

    killNext = 3;
    await service.release(first.claim);
    await sleep(RETRY_AFTER_MS);
    const retry = await service.claim(owner, 'switch-2', fingerprint);

    expect(statementsOnDeadConnections).toBe(before + 3);
    expect(retry.kind).toBe('claimed');
  });
});
