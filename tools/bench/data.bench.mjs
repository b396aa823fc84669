#!/usr/bin/env node
// Data growth: the key statistics, the overview and every admin list timed over a small database (1,000 rows
// a table) and again over a year-like one (10 M request-log rows over 7 days, 1 M items, 1 M orders, 1 M audit
// entries, 1 M events with their deliveries, 100,000 users, 1,000 subscriptions, 10 M inventory ledger entries
// over a year, with the stock inquiry today and asOf and a movements page beside it), in one run, on a database
// of the bench's own. Rows are generated with set-based SQL (generate_series); the request log's rollups are
// built from the generated rows as the migration builds them. Each call is timed in this process through the
// same services the routes call: median of BENCH_ROUNDS rounds after one warm-up call.
// Usage: npm run build && node tools/bench/data.bench.mjs   (BENCH_DATA_LOG_ROWS, BENCH_DATA_ROWS,
// BENCH_DATA_LEDGER_ROWS scale it)
import { performance } from 'node:perf_hooks';
import { RequestLogMaintenance } from '@wms/api-keys';
import { DEFAULT_TENANT_CODE } from '@wms/identity';
import { openRuntime } from '@wms/platform';
import { createServices } from '../../apps/gateway/dist/services.js';
import { median, prepareBenchEnv, withMachineBusy } from './lib.mjs';
import { ledgerData } from './ledger-data.mjs';

const LOG_ROWS = Number(process.env.BENCH_DATA_LOG_ROWS ?? 10_000_000);
const ROWS = Number(process.env.BENCH_DATA_ROWS ?? 1_000_000);
const LEDGER_ROWS = Number(process.env.BENCH_DATA_LEDGER_ROWS ?? 10_000_000);
const SMALL = 1_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DAY = 86_400_000;

const bench = await prepareBenchEnv('data');
const runtime = openRuntime(bench.config, { name: 'bench-data', redisRole: 'producer' });
const services = createServices(runtime.db, bench.config);
const { sequelize } = runtime.db;
const sql = (text, replacements = {}) => sequelize.query(text, { replacements });

/** Keys: a hot one with half the log, one with an eighth, the rest spread over 98 others. */
async function keys(tenantId) {
  await sql(
    `INSERT INTO api_keys (name, scopes, tenant_id, key_hash, key_prefix)
     SELECT 'bench ' || i, '{read}', :tenantId, md5('bench-key' || i), 'wms_bench' FROM generate_series(1, 100) AS i`,
    { tenantId },
  );
  const [rows] = await sql(`SELECT id FROM api_keys WHERE name LIKE 'bench %' ORDER BY name`);
  return rows.map((row) => row.id);
}

/** `count` request-log rows over the last 7 days (`offset` keeps each load's rows apart), then the rollups. */
async function requestLog(keyIds, count, offset) {
  const now = Date.now();
  const days = Array.from({ length: 8 }, (_, i) => new Date(now - i * DAY));
  await services.apiKeys.repository.requestLogs.addPartitionsFor(days);
  await services.apiKeys.repository.insertRequestLogs([
    {
      apiKeyId: keyIds[0],
      endpoint: '/api/v1/integration/v1/items',
      method: 'POST',
      ip: '192.0.2.1',
      origin: null,
      statusCode: 200,
      responseTimeMs: 1,
      createdAt: new Date(now),
    },
  ]);
  await sql(
    `INSERT INTO api_key_request_logs (created_at, api_key_id, response_time_us, endpoint_id, status_code, ip, origin)
     SELECT now() - ((i::bigint * 7919) % 604800000) * interval '1 millisecond',
            (CAST(:keyIds AS uuid[]))[CASE WHEN i % 8 < 4 THEN 1 WHEN i % 8 = 4 THEN 2 ELSE 3 + i % 98 END],
            500 + (i * 31) % 20000, (SELECT min(id) FROM api_request_endpoints),
            (ARRAY[200, 200, 201, 200, 404, 200, 500, 200])[1 + i % 8], '192.0.2.1', NULL
       FROM generate_series(:from, :to) AS i`,
    { keyIds: `{${keyIds.join(',')}}`, from: offset + 1, to: offset + count },
  );
  await sql(`
    TRUNCATE api_key_request_rollups;
    INSERT INTO api_key_request_rollups (api_key_id, hour, requests, errors, response_time_sum_us, response_time_max_us)
    SELECT api_key_id, date_trunc('hour', created_at, 'UTC'), count(*), count(*) FILTER (WHERE status_code >= 400),
           sum(response_time_us), max(response_time_us)
      FROM api_key_request_logs GROUP BY 1, 2`);
}

/** `count` rows of each other table, numbered from `offset`. */
async function tables(tenantId, count, offset) {
  const range = { from: offset + 1, to: offset + count, tenantId };
  await sql(
    `INSERT INTO items (tenant_id, sku, name, base_uom_code)
       SELECT :tenantId, 'BENCH-' || i, 'Item ' || i, 'EA' FROM generate_series(:from, :to) AS i;
     INSERT INTO sales_orders (tenant_id, order_no, reference_no, warehouse_id, customer_id)
       SELECT :tenantId, 'SO-' || i, 'REF-' || i, (SELECT id FROM warehouses LIMIT 1),
              (SELECT id FROM partners WHERE code = 'BENCH-CUSTOMER') FROM generate_series(:from, :to) AS i;
     INSERT INTO audit_logs (tenant_id, action, entity_type, entity_id, actor_user_id, created_at)
       SELECT :tenantId, 'bench.action' || (i % 30), 'entity' || (i % 7), (i % 5000)::text,
              (SELECT id FROM users ORDER BY created_at LIMIT 1), now() - i * interval '1 second'
         FROM generate_series(:from, :to) AS i;
     INSERT INTO events (tenant_id, event, data, occurred_at, relayed_at)
       SELECT :tenantId, 'bench.type' || (i % 40), '{}', now() - i * interval '1 second', now()
         FROM generate_series(:from, :to) AS i;
     INSERT INTO webhook_deliveries (event_id, event, subscription_id, status, attempts, created_at)
       SELECT e.id, e.event, (SELECT id FROM webhook_subscriptions WHERE url = 'https://hooks.example.test/bench'),
              (ARRAY['succeeded', 'succeeded', 'succeeded', 'failed', 'pending'])[1 + e.seq % 5], 1, e.occurred_at
         FROM events e WHERE e.event LIKE 'bench.%' AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id);
     INSERT INTO users (email, password_hash, role, tenant_id)
       SELECT 'bench-' || i || '@example.test', 'x', 'viewer', :tenantId FROM generate_series(:from, :to / 10) AS i
        WHERE i > :from / 10;
     INSERT INTO webhook_subscriptions (tenant_id, url, events, secret_sealed)
       SELECT :tenantId, 'https://hooks.example.test/' || i, '{order.created}', 'x' FROM generate_series(:from, :to / 1000) AS i
        WHERE i > :from / 1000;
     ANALYZE;`,
    range,
  );
}

async function time(call) {
  await call();
  const samples = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

async function timeAll(keyIds, tenantId, subscriptionId, actorUserId, ledgerCalls) {
  const admin = {
    sub: actorUserId,
    email: 'bench@example.test',
    role: 'admin',
    tenantId: null,
    adminModules: [],
    adminModulesWrite: [],
  };
  const everyone = { userId: null, tenantId: null };
  const viewer = { tenantId: null };
  const calls = {
    'key stats (hot key, 1/2 of the log)': () => services.apiKeys.stats(keyIds[0], everyone),
    'key stats (1/8 of the log)': () => services.apiKeys.stats(keyIds[1], everyone),
    overview: () => services.overview.summary(admin, () => Promise.resolve([])),
    'audit log, newest first': () => services.audit.list({ tenantId: null, limit: 50 }),
    'audit log by action': () => services.audit.list({ tenantId: null, limit: 50, action: 'bench.action3' }),
    'audit log by entity': () =>
      services.audit.list({ tenantId: null, limit: 50, entityType: 'entity2', entityId: '17' }),
    'audit log by actor': () => services.audit.list({ tenantId: null, limit: 50, actorUserId }),
    'audit log of a tenant': () => services.audit.list({ tenantId, limit: 50 }),
    'deliveries, newest first': () => services.webhooks.deliveryPage(subscriptionId, viewer, {}),
    'deliveries by status=failed': () => services.webhooks.deliveryPage(subscriptionId, viewer, { status: 'failed' }),
    'deliveries by event type': () => services.webhooks.deliveryPage(subscriptionId, viewer, { event: 'bench.type7' }),
    'API keys of a tenant': () => services.apiKeys.list({ userId: null, tenantId }),
    ...ledgerCalls,
  };
  const results = {};
  for (const [name, call] of Object.entries(calls)) results[name] = await time(call);
  return results;
}

try {
  const tenantId = (await services.tenants.findByCode(DEFAULT_TENANT_CODE)).id;
  await sql(
    `INSERT INTO partners (tenant_id, code, name, type) VALUES (:tenantId, 'BENCH-CUSTOMER', 'Bench', 'customer');
     INSERT INTO webhook_subscriptions (tenant_id, url, events, secret_sealed)
     VALUES (:tenantId, 'https://hooks.example.test/bench', '{order.created}', 'x')`,
    { tenantId },
  );
  const keyIds = await keys(tenantId);
  const ledger = ledgerData({ sql, db: runtime.db, services, tenantId });
  await ledger.prepare();
  const [[ids]] = await sql(`
    SELECT (SELECT id FROM webhook_subscriptions WHERE url = 'https://hooks.example.test/bench') AS "subscriptionId",
           (SELECT id FROM users ORDER BY created_at LIMIT 1) AS "actorUserId"`);

  const load = async (label, work) => {
    const started = performance.now();
    const { busy } = await withMachineBusy(work);
    console.log(
      `${label}: ${((performance.now() - started) / 1000).toFixed(0)} s (cores ${(busy * 100).toFixed(0)}% busy)`,
    );
  };
  await load(`loading ${SMALL} rows a table`, async () => {
    await requestLog(keyIds, SMALL, 0);
    await tables(tenantId, SMALL, 0);
    await ledger.load(SMALL);
  });
  const small = await timeAll(keyIds, tenantId, ids.subscriptionId, ids.actorUserId, ledger.calls());
  console.log(`at ${SMALL} rows: ${JSON.stringify(small)}`);
  await load(
    `loading to ${LOG_ROWS} request-log rows, ${LEDGER_ROWS} ledger entries and ${ROWS} rows a table`,
    async () => {
      await tables(tenantId, ROWS - SMALL, SMALL);
      await ledger.load(LEDGER_ROWS);
      await requestLog(keyIds, LOG_ROWS - SMALL, SMALL);
      await sql('VACUUM ANALYZE');
    },
  );
  const { result: large, busy } = await withMachineBusy(() =>
    timeAll(keyIds, tenantId, ids.subscriptionId, ids.actorUserId, ledger.calls()),
  );

  // What the gateway's maintenance does to the days that are over: their indexes rebuilt, packed.
  const maintenance = new RequestLogMaintenance(services.apiKeys.repository.requestLogs, runtime.logger);
  const settleStarted = performance.now();
  const { settled } = await maintenance.run();
  const settleSeconds = (performance.now() - settleStarted) / 1000;
  const [partitions] = await sql(`
    SELECT c.relname AS name, obj_description(c.oid, 'pg_class') = 'settled' AS settled,
           (SELECT count(*) FROM api_key_request_logs l WHERE l.tableoid = c.oid)::float8 AS rows,
           pg_total_relation_size(c.oid)::float8 AS bytes
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'api_key_request_logs'::regclass ORDER BY c.relname`);
  const perRow = (list) => {
    const rows = list.reduce((sum, partition) => sum + partition.rows, 0);
    return { rows, bytes: rows ? list.reduce((sum, partition) => sum + partition.bytes, 0) / rows : 0 };
  };
  const days = partitions.filter((partition) => partition.rows > 0);
  const settledDays = perRow(days.filter((partition) => partition.settled));
  const openDays = perRow(days.filter((partition) => !partition.settled));
  // Retention's work: the oldest day with rows detached and dropped whole.
  const oldest = days[0];
  const dropStarted = performance.now();
  await services.apiKeys.repository.requestLogs.withPartitionLock(true, (session) =>
    session.drop({ name: oldest.name, detachPending: false }),
  );
  const dropMs = performance.now() - dropStarted;
  const [[rollups]] = await sql(`
    SELECT pg_total_relation_size('api_key_request_rollups')::float8 AS bytes,
           (SELECT count(*) FROM api_key_request_rollups)::float8 AS rows`);
  console.log(`\n| call | ${SMALL} rows | at volume | growth |`);
  console.log('|---|---|---|---|');
  for (const name of Object.keys(small)) {
    const ms = (value) => `${value.toFixed(1)} ms`;
    console.log(`| ${name} | ${ms(small[name])} | ${ms(large[name])} | ${(large[name] / small[name]).toFixed(1)}× |`);
  }
  const today = large['stock inquiry, today'];
  for (const name of Object.keys(ledger.calls()).slice(1))
    console.log(`ledger at volume: ${name} is ${(large[name] / today).toFixed(1)}× today's stock inquiry`);
  console.log(`\nmedian of ${ROUNDS} rounds; cores ${(busy * 100).toFixed(0)}% busy while timing at volume`);
  console.log(
    `request log: ${settledDays.rows + openDays.rows} rows; days that are over, settled ` +
      `(${settled.length} index rebuilds in ${settleSeconds.toFixed(0)} s): ${settledDays.bytes.toFixed(1)} bytes a row ` +
      `all in; days still written: ${openDays.bytes.toFixed(1)} bytes a row`,
  );
  console.log(
    `dropping the oldest day (${oldest.rows} rows, ${(oldest.bytes / 1048576).toFixed(0)} MiB): ${dropMs.toFixed(1)} ms`,
  );
  console.log(`rollups: ${rollups.rows} rows, ${(rollups.bytes / rollups.rows).toFixed(1)} bytes a row`);
} finally {
  await runtime.close();
  await bench.cleanup();
}
