import {
  createTestContext,
  explainEverySelect,
  indexesOn,
  seqScans,
  type PlanNode,
  type TestContext,
} from '@wms/testing';
import type { Principal } from '@wms/identity';

const ROWS = 100_000;
/** The tables the lists read; a sequential scan of any of them at this size is refused. */
const BIG_TABLES = ['audit_logs', 'webhook_deliveries', 'events', 'api_keys', 'webhook_subscriptions', 'users'];

describe('every admin list filter reads an index at 100,000 rows', () => {
  let ctx: TestContext;
  let tenantId: string;
  let actorUserId: string;
  let subscriptionId: string;
  let plans: PlanNode[] = [];

  beforeAll(async () => {
    ctx = await createTestContext('list-plans');
    const { sequelize } = ctx.runtime.db;
    await sequelize.query(`
      INSERT INTO tenants (code, name) SELECT 'PLAN-' || i, 'Tenant ' || i FROM generate_series(1, 100) AS i;
      CREATE TEMP TABLE t AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM tenants WHERE code LIKE 'PLAN-%';
      INSERT INTO users (email, password_hash, role, tenant_id)
      SELECT 'plan-' || i || '@example.test', 'x', 'viewer', t.id FROM generate_series(1, ${ROWS}) AS i JOIN t ON t.n = 1 + i % 100;
      INSERT INTO api_keys (name, scopes, tenant_id, key_hash, key_prefix, created_at)
      SELECT 'key ' || i, '{read}', t.id, md5('plan' || i), 'wms_plan', now() - i * interval '1 minute'
        FROM generate_series(1, ${ROWS}) AS i JOIN t ON t.n = 1 + i % 100;
      INSERT INTO webhook_subscriptions (tenant_id, url, events, secret_sealed, created_at)
      SELECT t.id, 'https://hooks.example.test/' || i, '{order.created}', 'x', now() - i * interval '1 minute'
        FROM generate_series(1, ${ROWS}) AS i JOIN t ON t.n = 1 + i % 100;
      INSERT INTO events (tenant_id, event, data, occurred_at)
      SELECT t.id, 'plan.type' || (i % 40), '{}', now() - i * interval '1 second'
        FROM generate_series(1, ${ROWS}) AS i JOIN t ON t.n = 1 + i % 100;
      INSERT INTO webhook_deliveries (event_id, subscription_id, status, created_at)
      SELECT e.id, s.id, (ARRAY['succeeded', 'succeeded', 'succeeded', 'failed', 'pending'])[1 + e.seq % 5],
             e.occurred_at
        FROM events e
        JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM webhook_subscriptions
               WHERE url LIKE 'https://hooks.example.test/%' LIMIT 10) s ON s.n = 1 + e.seq % 10
       WHERE e.event LIKE 'plan.%';
      INSERT INTO audit_logs (tenant_id, action, entity_type, entity_id, actor_user_id, created_at)
      SELECT t.id, 'plan.action' || (i % 30), 'entity' || (i % 7), (i % 5000)::text, u.id, now() - i * interval '1 second'
        FROM generate_series(1, ${ROWS}) AS i JOIN t ON t.n = 1 + i % 100
        JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM users WHERE email LIKE 'plan-%' LIMIT 1000) u
          ON u.n = 1 + i % 1000;
      ANALYZE;
    `);
    const [[ids]] = (await sequelize.query(`
      SELECT (SELECT id FROM t WHERE n = 7) AS "tenantId",
             (SELECT actor_user_id FROM audit_logs WHERE action LIKE 'plan.%' LIMIT 1) AS "actorUserId",
             (SELECT subscription_id FROM webhook_deliveries LIMIT 1) AS "subscriptionId"`)) as [
      Array<{ tenantId: string; actorUserId: string; subscriptionId: string }>,
      unknown,
    ];
    ({ tenantId, actorUserId, subscriptionId } = ids!);

    // Every SELECT the services run is explained first, with the same values, then run as it was.
    plans = explainEverySelect(sequelize);
  }, 300_000);
  afterAll(() => ctx.close());

  const admin: Principal = {
    sub: '00000000-0000-4000-8000-000000000000',
    email: 'admin@example.test',
    role: 'admin',
    tenantId: null,
    adminModules: [],
    adminModulesWrite: [],
  };
  const viewer = { tenantId: null };

  const lists: Array<[string, () => Promise<unknown>]> = [
    ['audit log, newest first', () => ctx.services.audit.list({ tenantId: null, limit: 50 })],
    ['audit log by action', () => ctx.services.audit.list({ tenantId: null, limit: 50, action: 'plan.action3' })],
    [
      'audit log by entity',
      () => ctx.services.audit.list({ tenantId: null, limit: 50, entityType: 'entity2', entityId: '17' }),
    ],
    ['audit log by entity type', () => ctx.services.audit.list({ tenantId: null, limit: 50, entityType: 'entity2' })],
    ['audit log by actor', () => ctx.services.audit.list({ tenantId: null, limit: 50, actorUserId })],
    ['audit log of a tenant', () => ctx.services.audit.list({ tenantId, limit: 50 })],
    ['deliveries of a subscription', () => ctx.services.webhooks.deliveryPage(subscriptionId, viewer, {})],
    ['deliveries by status', () => ctx.services.webhooks.deliveryPage(subscriptionId, viewer, { status: 'failed' })],
    [
      'deliveries by event type',
      () => ctx.services.webhooks.deliveryPage(subscriptionId, viewer, { event: 'plan.type7' }),
    ],
    ['API keys of a tenant', () => ctx.services.apiKeys.list({ userId: null, tenantId })],
    ['subscriptions of a tenant', () => ctx.services.webhooks.list({ tenantId })],
    ['users of a tenant', () => ctx.services.users.list(admin, { tenantId })],
  ];

  it.each(lists)('the %s is read without a sequential scan of a large table', async (_name, list) => {
    plans.length = 0;

    await list();

    expect(plans.length).toBeGreaterThan(0);
    const scanned = plans.flatMap(seqScans).filter((table) => BIG_TABLES.includes(table));
    expect(scanned).toEqual([]);
  });

  it('the deliveries by event type are one range of the delivery event index, without reading events', async () => {
    plans.length = 0;

    await ctx.services.webhooks.deliveryPage(subscriptionId, viewer, { event: 'plan.type7' });

    expect(plans.length).toBeGreaterThan(0);
    expect(plans.flatMap((plan) => indexesOn('webhook_deliveries', plan))).toEqual(['webhook_deliveries_event_idx']);
    expect(plans.flatMap((plan) => indexesOn('events', plan))).toEqual([]);
  });

  it("the overview counts a day's failed deliveries from the failed-deliveries index only", async () => {
    const [[failing]] = (await ctx.runtime.db.sequelize.query(
      `SELECT s.id, s.tenant_id AS "tenantId"
         FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE d.status = 'failed' LIMIT 1`,
    )) as [Array<{ id: string; tenantId: string }>, unknown];
    plans.length = 0;

    const overview = await ctx.services.overview.summary({ ...admin, tenantId: failing!.tenantId }, async () => []);

    expect(overview.webhooks?.failingSubscriptions.map((subscription) => subscription.id)).toContain(failing!.id);
    const reads = plans.flatMap((plan) => indexesOn('webhook_deliveries', plan));
    expect([...new Set(reads)]).toEqual(['webhook_deliveries_failed_idx']);
  });
});
