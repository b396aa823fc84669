// Documents bench: order creates/s (single, and bulk of 100 through the ingest worker) and stock
// inquiries/s at 32 connections, each beside the same statements run by a bare Express handler with
// `pg` and no guard, envelope, validation or queue (in this process). Loopback only, bounded durations.
import express from 'express';
import pg from 'pg';
import { freePort, load, prepareBenchEnv, ratio, startApp } from './lib.mjs';
import { createServices, openRuntime, DEFAULT_TENANT_CODE } from '@wms/shared';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const LOCATIONS = 4;
const LOTS = 5;

export default async function documentsBench() {
  const bench = await prepareBenchEnv('documents');
  const port = freePort();
  const runtime = openRuntime(bench.config, { name: 'bench-setup', redisRole: 'producer' });
  const services = createServices(runtime.db, bench.config);
  let gateway;
  let worker;
  let bare;
  try {
    const tenant = await services.tenants.findByCode(DEFAULT_TENANT_CODE);
    const key = await services.apiKeys.create({ name: 'documents bench', scopes: ['read', 'write'], tenantId: tenant.id }, null);
    await arrangeStock(runtime, services, tenant.id);
    gateway = await startApp('gateway', bench.env, { port });
    worker = await startApp('ingest-worker', bench.env);
    bare = await startBare(bench.config.databaseUrl, bench.config.databasePoolMax, tenant.id);
    const barePort = bare.port;

    const base = `http://127.0.0.1:${port}/api/v1/integration/v1`;
    const headers = { 'x-api-key': key.rawKey, 'content-type': 'application/json' };
    const rows = [];
    rows.push(await compare('stock inquiry', { url: `${base}/stock?sku=BENCH-LOT&warehouseCode=MAIN`, headers }, { url: `http://127.0.0.1:${barePort}/stock?sku=BENCH-LOT&warehouseCode=MAIN` }));
    rows.push(await compare('order create (single)', post(`${base}/orders`, headers, () => order()), post(`http://127.0.0.1:${barePort}/orders`, { 'content-type': 'application/json' }, () => order())));
    rows.push(
      await compare(
        'order create (bulk of 100), orders/s',
        post(`${base}/orders/bulk`, headers, () => ({ orders: Array.from({ length: 100 }, () => order()) })),
        post(`http://127.0.0.1:${barePort}/orders/bulk`, { 'content-type': 'application/json' }, () => ({ orders: Array.from({ length: 100 }, () => order()) })),
        100,
      ),
    );
    console.table(rows);
    // Refused requests are fast: a run with any of them measures the refusals, not the work.
    if (rows.some((row) => !row['non-2xx (service/bare)'].startsWith('0/'))) console.log('WARNING: some service requests were not 2xx; these figures are not valid');
  } finally {
    await bare?.close();
    await gateway?.stop();
    await worker?.stop();
    await runtime.close();
    await bench.cleanup();
  }
}

let sequence = 0;
function order() {
  sequence += 1;
  return {
    warehouseCode: 'MAIN',
    customerCode: 'BENCH-CUST',
    referenceNo: `BENCH-${process.pid}-${sequence}`,
    priority: 1,
    lines: [
      { lineNo: 1, sku: 'BENCH-LOT', uomCode: 'EA', qtyOrdered: 2 },
      { lineNo: 2, sku: 'BENCH-PLAIN', uomCode: 'EA', qtyOrdered: 1 },
    ],
  };
}

/** A POST whose body is built per request (each order needs its own referenceNo). */
function post(url, headers, body) {
  const { origin, pathname } = new URL(url);
  return { url: origin, requests: [{ method: 'POST', path: pathname, headers, setupRequest: (request) => ({ ...request, body: JSON.stringify(body()) }) }] };
}

async function compare(name, service, bareTarget, perRequest = 1) {
  const ours = await load({ ...service, connections: CONNECTIONS, duration: SECONDS });
  const theirs = await load({ ...bareTarget, connections: CONNECTIONS, duration: SECONDS });
  const failed = (result) => result.non2xx + result.errors;
  return {
    case: name,
    'service/s': Math.round(ours.requests.average * perRequest),
    'bare/s': Math.round(theirs.requests.average * perRequest),
    'throughput ratio': ratio(ours.requests.average, theirs.requests.average),
    'service p50/p99 ms': `${ours.latency.p50}/${ours.latency.p99}`,
    'bare p50/p99 ms': `${theirs.latency.p50}/${theirs.latency.p99}`,
    'p99 ratio': ratio(ours.latency.p99, theirs.latency.p99),
    'non-2xx (service/bare)': `${failed(ours)}/${failed(theirs)}`,
  };
}

/** One lot-tracked item with LOTS lots on each of LOCATIONS locations (20 stock rows), a plain item, a customer. */
async function arrangeStock(runtime, services, tenantId) {
  await runtime.db.sequelize.transaction(async (transaction) => {
    const context = { tenantId, transaction };
    await services.masterData.upsertItems(context, [
      { sku: 'BENCH-LOT', name: 'Bench lot item', baseUomCode: 'EA', tracking: 'lot' },
      { sku: 'BENCH-PLAIN', name: 'Bench plain item', baseUomCode: 'EA', tracking: 'none' },
    ]);
    await services.masterData.upsertPartners(context, [{ code: 'BENCH-CUST', name: 'Bench customer', type: 'customer' }]);
    await services.masterData.upsertLocations(context, Array.from({ length: LOCATIONS }, (_, n) => ({ warehouseCode: 'MAIN', code: `L-${n}`, type: 'storage', pickFace: n === 0 })));
    const lines = [];
    for (let location = 0; location < LOCATIONS; location += 1) {
      for (let lot = 0; lot < LOTS; lot += 1) {
        lines.push({ sku: 'BENCH-LOT', uomCode: 'EA', qty: 100, lotNo: `LOT-${lot}`, expiryDate: `2031-0${lot + 1}-01`, locationCode: `L-${location}` });
      }
    }
    await services.grns.receive(context, { warehouseCode: 'MAIN', lines });
  });
}

const STOCK_SQL = `WITH item AS (SELECT id, sku, name, tracking FROM items WHERE tenant_id = $1 AND sku = $2),
  wh AS (SELECT id, code FROM warehouses WHERE tenant_id = $1 AND ($3::text IS NULL OR code = $3)),
  rows AS (
    SELECT w.code AS "warehouseCode", l.code AS "locationCode", NULLIF(s.lot_no, '') AS "lotNo",
           to_char(s.expiry_date, 'YYYY-MM-DD') AS "expiryDate", s.qty_on_hand, s.qty_allocated
    FROM stock_rows s JOIN item i ON i.id = s.item_id JOIN wh w ON w.id = s.warehouse_id JOIN locations l ON l.id = s.location_id
    WHERE s.tenant_id = $1 AND s.qty_on_hand > 0)
  SELECT i.sku, i.name AS "itemName", i.tracking,
    (SELECT COALESCE(sum(qty_on_hand), 0)::float8 FROM rows) AS "totalOnHand",
    (SELECT COALESCE(sum(qty_allocated), 0)::float8 FROM rows) AS "totalAllocated",
    (SELECT COALESCE(sum(qty_on_hand - qty_allocated), 0)::float8 FROM rows) AS "totalAvailable",
    (SELECT COALESCE(json_agg(json_build_object('warehouseCode', r."warehouseCode", 'locationCode', r."locationCode",
        'lotNo', r."lotNo", 'expiryDate', r."expiryDate", 'qtyOnHand', r.qty_on_hand::float8,
        'qtyAllocated', r.qty_allocated::float8, 'qtyAvailable', (r.qty_on_hand - r.qty_allocated)::float8)
      ORDER BY r."warehouseCode", r."locationCode", r."lotNo"), '[]'::json) FROM rows r) AS stocks
  FROM item i`;

/** The bare comparison: the same statements, straight on pg, no guard, validation, envelope or queue. */
async function startBare(connectionString, max, tenantId) {
  const pool = new pg.Pool({ connectionString, max });
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.get('/stock', async (req, res) => {
    const { rows } = await pool.query(STOCK_SQL, [tenantId, req.query.sku, req.query.warehouseCode ?? null]);
    res.json({ data: rows[0] });
  });
  app.post('/orders', async (req, res) => {
    res.status(201).json({ data: await bareCreate(pool, tenantId, [req.body]) });
  });
  app.post('/orders/bulk', async (req, res) => {
    res.json({ data: await bareCreate(pool, tenantId, req.body.orders) });
  });
  // Port 0: the system picks a free one, so the bare server never collides with anything else running.
  const server = await new Promise((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', (error) => (error ? reject(error) : resolve(listening)));
  });
  return {
    port: server.address().port,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}

async function bareCreate(pool, tenantId, orders) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const refs = await client.query(
      `SELECT 'w' AS kind, code AS key, id FROM warehouses WHERE tenant_id = $1 AND code = ANY($2::text[])
       UNION ALL SELECT 'p', code, id FROM partners WHERE tenant_id = $1 AND code = ANY($3::text[])
       UNION ALL SELECT 'i', sku, id FROM items WHERE tenant_id = $1 AND sku = ANY($4::text[])`,
      [tenantId, ['MAIN'], ['BENCH-CUST'], ['BENCH-LOT', 'BENCH-PLAIN']],
    );
    const id = new Map(refs.rows.map((row) => [`${row.kind}:${row.key}`, row.id]));
    const numbers = await client.query(`SELECT 'SO-' || to_char(now(), 'YYYYMMDD') || '-' || lpad(nextval('sales_order_number_seq')::text, 6, '0') AS no FROM generate_series(1, $1)`, [orders.length]);
    const headers = orders.map((entry, n) => ({ orderNo: numbers.rows[n].no, referenceNo: entry.referenceNo, warehouseId: id.get('w:MAIN'), customerId: id.get('p:BENCH-CUST'), priority: entry.priority }));
    const inserted = await client.query(
      `INSERT INTO sales_orders (tenant_id, order_no, reference_no, warehouse_id, customer_id, priority)
       SELECT $1::uuid, e.value->>'orderNo', e.value->>'referenceNo', (e.value->>'warehouseId')::uuid, (e.value->>'customerId')::uuid, (e.value->>'priority')::integer
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(value, ord) ORDER BY e.ord
       ON CONFLICT (tenant_id, reference_no) DO NOTHING RETURNING id, order_no`,
      [tenantId, JSON.stringify(headers)],
    );
    const orderIds = new Map(inserted.rows.map((row) => [row.order_no, row.id]));
    const lines = headers.flatMap((header, n) => orders[n].lines.map((line) => ({ orderId: orderIds.get(header.orderNo), lineNo: line.lineNo, itemId: id.get(`i:${line.sku}`), uomCode: line.uomCode, qtyOrdered: line.qtyOrdered })));
    await client.query(
      `INSERT INTO sales_order_lines (order_id, line_no, item_id, uom_code, qty_ordered)
       SELECT r."orderId", r."lineNo", r."itemId", r."uomCode", r."qtyOrdered"
       FROM jsonb_to_recordset($1::jsonb) AS r("orderId" uuid, "lineNo" integer, "itemId" uuid, "uomCode" text, "qtyOrdered" numeric)`,
      [JSON.stringify(lines)],
    );
    await client.query('COMMIT');
    return inserted.rows;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
