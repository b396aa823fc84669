import {
  createTestContext,
  explainEverySelect,
  indexesOn,
  seqScans,
  type PlanNode,
  type TestContext,
} from '@wms/testing';

const ROWS = 100_000;
/** The tables the integration lists read; a sequential scan of any of them at this size is refused. */
const BIG_TABLES = ['items', 'partners', 'locations', 'sales_orders', 'asns', 'returns'];

/**
 * The catalogue reads, the stock of many skus and the document lists by referenceNo, explained exactly as the
 * services send them over 100,000 rows per table spread over 100 tenants: each reads an index.
 */
describe('every integration read filter reads an index at 100,000 rows', () => {
  let ctx: TestContext;
  let tenantId: string;
  let plans: PlanNode[] = [];

  beforeAll(async () => {
    ctx = await createTestContext('catalogue-plans');
    const { sequelize } = ctx.runtime.db;
    await sequelize.query(`
      INSERT INTO tenants (code, name) SELECT 'PLAN-' || i, 'Tenant ' || i FROM generate_series(1, 100) AS i;
      CREATE TEMP TABLE t AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM tenants WHERE code LIKE 'PLAN-%';
      INSERT INTO warehouses (tenant_id, code, name) SELECT t.id, 'WH' || w, 'Warehouse' FROM t, generate_series(1, 5) AS w;
      INSERT INTO items (tenant_id, sku, name, base_uom_code, updated_at)
      SELECT t.id, 'SKU-' || i, 'Item ' || i, 'EA', now() - i * interval '1 second'
        FROM generate_series(1, ${ROWS}) AS i JOIN t ON t.n = 1 + i % 100;
      INSERT INTO partners (tenant_id, code, name, type, updated_at)
      SELECT t.id, 'P-' || i, 'Partner ' || i, (ARRAY['supplier', 'customer', 'carrier', 'other'])[1 + i % 4],
             now() - i * interval '1 second'
        FROM generate_series(1, ${ROWS}) AS i JOIN t ON t.n = 1 + i % 100;
      -- Most locations in each tenant's WH1, a few in its other warehouses.
      INSERT INTO locations (tenant_id, warehouse_id, code, updated_at)
      SELECT w.tenant_id, w.id, 'L-' || i, now() - i * interval '1 second'
        FROM generate_series(1, ${ROWS}) AS i JOIN t ON t.n = 1 + i % 100
        JOIN warehouses w ON w.tenant_id = t.id AND w.code = CASE WHEN i % 1000 < 990 THEN 'WH1' ELSE 'WH2' END;
      CREATE TEMP TABLE party AS SELECT DISTINCT ON (tenant_id) tenant_id, id FROM partners ORDER BY tenant_id, id;
      CREATE TEMP TABLE store AS SELECT DISTINCT ON (tenant_id) tenant_id, id FROM warehouses ORDER BY tenant_id, id;
      INSERT INTO sales_orders (tenant_id, order_no, reference_no, warehouse_id, customer_id, updated_at)
      SELECT t.id, 'SO-' || i, 'REF-' || i, store.id, party.id, now() - i * interval '1 second'
        FROM generate_series(1, ${ROWS}) AS i JOIN t ON t.n = 1 + i % 100
        JOIN store ON store.tenant_id = t.id JOIN party ON party.tenant_id = t.id;
      INSERT INTO asns (tenant_id, asn_no, reference_no, warehouse_id, supplier_id, updated_at)
      SELECT t.id, 'ASN-' || i, 'PO-' || i, store.id, party.id, now() - i * interval '1 second'
        FROM generate_series(1, ${ROWS}) AS i JOIN t ON t.n = 1 + i % 100
        JOIN store ON store.tenant_id = t.id JOIN party ON party.tenant_id = t.id;
      INSERT INTO returns (tenant_id, rma_no, order_id, warehouse_id, updated_at)
      SELECT o.tenant_id, 'RMA-' || o.order_no, o.id, o.warehouse_id, o.updated_at FROM sales_orders o;
      ANALYZE;
    `);
    // The tenant of i = 7, 107, …: its skus, codes and references end in those numbers.
    const [[row]] = (await sequelize.query('SELECT t.id AS "tenantId" FROM t WHERE n = 8')) as [
      Array<{ tenantId: string }>,
      unknown,
    ];
    tenantId = row!.tenantId;
    plans = explainEverySelect(sequelize, /^\s*(SELECT|WITH)/i);
  }, 300_000);
  afterAll(() => ctx.close());

  const page = { limit: 100 };
  const since = new Date(Date.now() - 3600_000).toISOString();

  const reads: Array<[string, string[], () => Promise<unknown>]> = [
    ['items, oldest change first', ['items items_updated_idx'], () => ctx.services.catalogue.items(tenantId, page)],
    [
      'items changed since',
      ['items items_updated_idx'],
      () => ctx.services.catalogue.items(tenantId, { ...page, updatedSince: since }),
    ],
    [
      'items by sku',
      ['items items_tenant_id_sku_key'],
      () => ctx.services.catalogue.items(tenantId, { ...page, sku: ['SKU-7', 'SKU-107'] }),
    ],
    ['one item', ['items items_tenant_id_sku_key'], () => ctx.services.catalogue.item(tenantId, 'SKU-7')],
    ['partners', ['partners partners_updated_idx'], () => ctx.services.catalogue.partners(tenantId, page)],
    [
      'partners by code',
      ['partners partners_tenant_id_code_key'],
      () => ctx.services.catalogue.partners(tenantId, { ...page, code: ['P-7', 'P-107'] }),
    ],
    [
      'partners of a type',
      ['partners partners_type_updated_idx'],
      () => ctx.services.catalogue.partners(tenantId, { ...page, type: 'carrier' }),
    ],
    ['locations', ['locations locations_updated_idx'], () => ctx.services.catalogue.locations(tenantId, page)],
    [
      "a warehouse's locations",
      ['locations locations_warehouse_updated_idx'],
      () => ctx.services.catalogue.locations(tenantId, { ...page, warehouseCode: 'WH1' }),
    ],
    [
      'locations by code',
      ['locations locations_code_idx'],
      () => ctx.services.catalogue.locations(tenantId, { ...page, code: ['L-7', 'L-507'] }),
    ],
    [
      'the orders of a referenceNo',
      ['sales_orders sales_orders_reference_key'],
      () => ctx.services.orders.list(tenantId, { ...page, referenceNo: 'REF-7' }),
    ],
    [
      'the ASNs of a referenceNo',
      ['asns asns_reference_key'],
      () => ctx.services.asns.list(tenantId, { ...page, referenceNo: 'PO-7' }),
    ],
    [
      'the returns of an order by its referenceNo',
      ['sales_orders sales_orders_reference_key', 'returns returns_order_idx'],
      () => ctx.services.returns.list(tenantId, { ...page, referenceNo: 'REF-7' }, 'number'),
    ],
    [
      'the stock of many skus',
      ['items items_tenant_id_sku_key'],
      () => ctx.services.stock.levelsJson(tenantId, { sku: ['SKU-7', 'SKU-107', 'SKU-207'] }),
    ],
  ];

  it.each(reads)('%s are read without a sequential scan of a large table', async (_name, indexes, read) => {
    plans.length = 0;

    await read();

    expect(plans.length).toBeGreaterThan(0);
    expect(plans.flatMap(seqScans).filter((table) => BIG_TABLES.includes(table))).toEqual([]);
    const tables = [...new Set(indexes.map((index) => index.split(' ')[0]!))];
    const scanned = plans.flatMap((plan) =>
      tables.flatMap((table) => indexesOn(table, plan).map((index) => `${table} ${index}`)),
    );
    expect(scanned).toEqual(expect.arrayContaining(indexes));
  });
});
