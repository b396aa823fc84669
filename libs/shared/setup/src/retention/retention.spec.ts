import { createApiKey, createTestContext, defaultTenantId, type TestContext } from '@wms/testing';
import { RetentionSweeper } from './retention.js';
import type { Config } from '@wms/platform';

const retention = (auditDays: number | null): Pick<Config, 'bulkJobRetentionSeconds' | 'retention'> => ({
  bulkJobRetentionSeconds: 86_400,
  retention: {
    requestLogDays: 90,
    requestLogRollupDays: 400,
    requestLogPartitionsAheadDays: 7,
    deliveredEventDays: 30,
    failedEventDays: 90,
    auditDays,
    stockLedgerDays: 400,
    stockSnapshotDays: 7,
  },
});

describe('retention of events, deliveries, audit entries and Idempotency-Key records', () => {
  let ctx: TestContext;
  let tenantId: string;
  let subscriptionId: string;

  const query = async <Row>(sql: string, replacements: Record<string, unknown> = {}) => {
    const [rows] = (await ctx.runtime.db.sequelize.query(sql, { replacements })) as [Row[], unknown];
    return rows;
  };

  /** An event `days` old, relayed, with one delivery in `status` last changed `changedDays` ago and one attempt. */
  const event = async (name: string, days: number, status: string | null, changedDays = days) => {
    const [row] = await query<{ id: string }>(
      `INSERT INTO events (tenant_id, event, data, occurred_at, relayed_at)
       VALUES (:tenantId, :name, '{}', now() - make_interval(days => :days), now() - make_interval(days => :days))
       RETURNING id`,
      { tenantId, name, days },
    );
    if (status) {
      await query(
        `WITH d AS (
           INSERT INTO webhook_deliveries (event_id, subscription_id, status, attempts, created_at, updated_at)
           VALUES (:id, :subscriptionId, :status, 1, now() - make_interval(days => :days),
                   now() - make_interval(days => :changedDays))
           RETURNING id)
         INSERT INTO webhook_delivery_attempts (delivery_id, generation, status_code, latency_ms) SELECT id, 0, 200, 5 FROM d`,
        { id: row!.id, subscriptionId, status, days, changedDays },
      );
    }
    return name;
  };
  const eventsLeft = async () =>
    (await query<{ event: string }>(`SELECT event FROM events WHERE event LIKE 'retention.%' ORDER BY event`)).map(
      (row) => row.event,
    );

  beforeAll(async () => {
    ctx = await createTestContext('retention');
    tenantId = await defaultTenantId(ctx);
    [{ id: subscriptionId }] = (await query<{ id: string }>(
      `INSERT INTO webhook_subscriptions (tenant_id, url, events, secret_sealed)
       VALUES (:tenantId, 'https://hooks.example.test/retention', '{order.created}', 'x') RETURNING id`,
      { tenantId },
    )) as [{ id: string }];
  });
  afterAll(() => ctx.close());

  it('when a sweep runs, delivered events go after 30 days and failed ones 90 days after failing; pending ones stay', async () => {
    await event('retention.a-delivered-old', 31, 'succeeded');
    await event('retention.b-delivered-young', 29, 'succeeded');
    await event('retention.c-no-subscriber-old', 31, null);
    await event('retention.d-failed-recently', 120, 'failed', 60);
    await event('retention.e-failed-long-ago', 120, 'failed', 91);
    await event('retention.f-pending-old', 120, 'pending');
    const sweeper = new RetentionSweeper(ctx.runtime.db, retention(null), ctx.services.idempotency, ctx.runtime.logger);

    const result = await sweeper.sweep();

    expect(result.events).toBe(3);
    expect(await eventsLeft()).toEqual([
      'retention.b-delivered-young',
      'retention.d-failed-recently',
      'retention.f-pending-old',
    ]);
    const orphans = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_delivery_attempts a
        WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id)`,
    );
    expect(orphans[0]!.n).toBe(0);
    const [{ attempts }] = (await query<{ attempts: number }>(
      `SELECT count(*)::int AS attempts FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.subscription_id = :subscriptionId`,
      { subscriptionId },
    )) as [{ attempts: number }];
    expect(attempts).toBe(3);
  });

  it('when AUDIT_RETENTION_DAYS is unset, audit entries are kept; when set, older ones go', async () => {
    await query(
      `INSERT INTO audit_logs (action, entity_type, entity_id, created_at)
       VALUES ('retention.old', 'test', '1', now() - interval '40 days'), ('retention.new', 'test', '2', now())`,
    );
    const count = async () =>
      (await query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_logs WHERE action LIKE 'retention.%'`))[0]!.n;

    const kept = await new RetentionSweeper(
      ctx.runtime.db,
      retention(null),
      ctx.services.idempotency,
      ctx.runtime.logger,
    ).sweep();
    const afterKept = await count();
    const purged = await new RetentionSweeper(
      ctx.runtime.db,
      retention(30),
      ctx.services.idempotency,
      ctx.runtime.logger,
    ).sweep();

    expect(kept.auditEntries).toBe(0);
    expect(afterKept).toBe(2);
    expect(purged.auditEntries).toBe(1);
    expect(await count()).toBe(1);
  });

  it('when more Idempotency-Key records expired than one batch holds, one sweep deletes them all', async () => {
    const key = await createApiKey(ctx);
    await query(
      `INSERT INTO idempotency_records (api_key_id, idempotency_key, fingerprint, state, claim_id, token, lease_until, expires_at)
       SELECT :keyId, 'retention-' || i, 'f', 'completed', gen_random_uuid(), gen_random_uuid(), now(), now() - interval '1 minute'
         FROM generate_series(1, 2500) AS i`,
      { keyId: key.id },
    );

    const result = await new RetentionSweeper(
      ctx.runtime.db,
      retention(null),
      ctx.services.idempotency,
      ctx.runtime.logger,
    ).sweep();

    expect(result.idempotencyRecords).toBeGreaterThanOrEqual(2500);
    const left = await query<{ n: number }>(
      'SELECT count(*)::int AS n FROM idempotency_records WHERE expires_at <= now()',
    );
    expect(left[0]!.n).toBe(0);
  });
});
