// The bare limit of the inquiry and order paths: Express + `pg` running the very statements the service
// runs (imported from the shared library), with no guard, validation, envelope, log or queue. A process of
// its own, like the gateway; named prepared statements and the answer sent as the JSON text PostgreSQL
// built, the best plain `pg` does; `?format=decimal` runs the statements as `2026-12-01` keys get them. Env:
// DATABASE_URL, POOL_MAX, TENANT_ID. Sends { ready, port } when listening.
import express from 'express';
import pg from 'pg';
import { orderInquirySql, stockInquirySql } from '@wms/warehouse';
import { createGatewayServer } from '../../../apps/gateway/dist/http/server.js';

const tenantId = process.env.TENANT_ID;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_MAX ?? 10) });
const app = express();
app.disable('x-powered-by');
app.use(express.json({ limit: '1mb' }));

app.get('/stock', async (req, res) => {
  const format = req.query.format === 'decimal' ? 'decimal' : 'number';
  const { rows } = await pool.query({
    name: `stock-inquiry-${format}`,
    text: stockInquirySql(format),
    values: [tenantId, req.query.sku, req.query.warehouseCode ?? null, null],
  });
  res.type('application/json').send(`{"data":${rows[0].item}}`);
});
app.get('/orders/:orderNo', async (req, res) => {
  const format = req.query.format === 'decimal' ? 'decimal' : 'number';
  const { rows } = await pool.query({
    name: `order-inquiry-${format}`,
    text: orderInquirySql(format),
    values: [tenantId, req.params.orderNo],
  });
  if (!rows[0]) return res.status(404).json({ message: 'not found' });
  res.type('application/json').send(`{"data":${rows[0].document}}`);
});
app.post('/orders', async (req, res) => {
  res.status(201).json({ data: await bareCreate([req.body]) });
});
app.post('/orders/bulk', async (req, res) => {
  res.json({ data: await bareCreate(req.body.orders) });
});

async function bareCreate(orders) {
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
    const numbers = await client.query(
      `SELECT 'SO-' || to_char(now(), 'YYYYMMDD') || '-' || lpad(nextval('sales_order_number_seq')::text, 6, '0') AS no FROM generate_series(1, $1)`,
      [orders.length],
    );
    const headers = orders.map((entry, n) => ({
      orderNo: numbers.rows[n].no,
      referenceNo: entry.referenceNo,
      warehouseId: id.get('w:MAIN'),
      customerId: id.get('p:BENCH-CUST'),
      priority: entry.priority,
    }));
    const inserted = await client.query(
      `INSERT INTO sales_orders (tenant_id, order_no, reference_no, warehouse_id, customer_id, priority)
       SELECT $1::uuid, e.value->>'orderNo', e.value->>'referenceNo', (e.value->>'warehouseId')::uuid, (e.value->>'customerId')::uuid, (e.value->>'priority')::integer
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(value, ord) ORDER BY e.ord
       ON CONFLICT (tenant_id, reference_no) DO NOTHING RETURNING id, order_no`,
      [tenantId, JSON.stringify(headers)],
    );
    const orderIds = new Map(inserted.rows.map((row) => [row.order_no, row.id]));
    const lines = headers.flatMap((header, n) =>
      orders[n].lines.map((line) => ({
        orderId: orderIds.get(header.orderNo),
        lineNo: line.lineNo,
        itemId: id.get(`i:${line.sku}`),
        uomCode: line.uomCode,
        qtyOrdered: line.qtyOrdered,
      })),
    );
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

// Requests and responses born with Express' prototypes, by the gateway's own server function (it holds no
// service logic): Express' per-request Object.setPrototypeOf would otherwise cost the bare side more than
// half its CPU, and the ratios would credit the service with what is only a faster way to run Express.
const server = createGatewayServer(app);
server.listen(0, '127.0.0.1', () => process.send({ ready: true, port: server.address().port }));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().finally(() => process.exit(0));
});
