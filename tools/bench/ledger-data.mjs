// The inventory ledger's part of the data bench: stock rows of BENCH-LEDGER items over 20 locations, and
// `count` ledger entries over the last 365 days generated in one set-based statement (generate_series). Entry
// k of stock row r puts (1 + r % 10) on hand, so its balance after is a closed form and the rows' balances
// are the entries' sums without a window over the whole ledger. What it times against today's inquiry:
// `asOf` half a year back and a movements page of one item, and a page of the tenant's movements.
import { LedgerPartitionsRepository, monthStart } from '@wms/warehouse';

const LOCATIONS = 20;
const DAYS = 365;

/** Stock rows of the ledger: one per (item, location), `rows` in all. */
export function ledgerData({ sql, db, services, tenantId }, rows = 20_000) {
  const sku = 'BENCH-LEDGER-7';
  const halfYearAgo = () => new Date(Date.now() - (DAYS / 2) * 86_400_000).toISOString();
  return {
    async prepare() {
      const warehouse = await services.warehouses.create({ tenantId, code: 'BENCH-LEDGER', name: 'Ledger bench' });
      await new LedgerPartitionsRepository(db).ensure(
        monthStart(new Date(Date.now() - DAYS * 86_400_000)),
        monthStart(new Date()),
      );
      await sql(
        `INSERT INTO locations (tenant_id, warehouse_id, code)
           SELECT :tenantId, :warehouseId, 'LB-' || l FROM generate_series(0, :locations - 1) AS l;
         INSERT INTO items (tenant_id, sku, name, base_uom_code)
           SELECT :tenantId, 'BENCH-LEDGER-' || i, 'Ledger item ' || i, 'EA' FROM generate_series(0, :items - 1) AS i;
         CREATE TABLE bench_ledger_rows AS
           SELECT r, gen_random_uuid() AS id, it.id AS item_id, lo.id AS location_id
             FROM generate_series(0, :rows - 1) AS r
             JOIN items it ON it.tenant_id = :tenantId AND it.sku = 'BENCH-LEDGER-' || (r / :locations)
             JOIN locations lo ON lo.warehouse_id = :warehouseId AND lo.code = 'LB-' || (r % :locations);
         ALTER TABLE bench_ledger_rows ADD PRIMARY KEY (r);
         INSERT INTO stock_rows (id, tenant_id, warehouse_id, location_id, item_id)
           SELECT id, :tenantId, :warehouseId, location_id, item_id FROM bench_ledger_rows;`,
        { tenantId, warehouseId: warehouse.id, locations: LOCATIONS, items: rows / LOCATIONS, rows },
      );
      this.warehouseId = warehouse.id;
    },

    /** Replaces the ledger by `count` entries and sets every row's balance to its entries' sum. */
    async load(count) {
      const span = DAYS * 86_400;
      await sql(
        `TRUNCATE stock_movements;
         INSERT INTO stock_movements (at, tenant_id, stock_row_id, warehouse_id, location_id, item_id, lot_no,
                                      qty_on_hand_delta, qty_allocated_delta, qty_on_hand_after, qty_allocated_after,
                                      cause, document_no)
           SELECT now() - interval '${DAYS} days' + ((i / :rows)::float8 * :span / (:count / :rows + 1)) * interval '1 second',
                  :tenantId, b.id, :warehouseId, b.location_id, b.item_id, '',
                  1 + b.r % 10, 0, (i / :rows + 1) * (1 + b.r % 10), 0,
                  (ARRAY['grn', 'adjustment', 'cycle_count', 'return'])[1 + i % 4], 'BENCH-' || i
             FROM generate_series(0, :count - 1) AS i JOIN bench_ledger_rows b ON b.r = i % :rows;
         UPDATE stock_rows s SET qty_on_hand = ((:count - 1 - b.r) / :rows + 1) * (1 + b.r % 10)
           FROM bench_ledger_rows b WHERE s.id = b.id AND b.r < :count;
         ANALYZE stock_movements; ANALYZE stock_rows;`,
        { tenantId, warehouseId: this.warehouseId, rows, count, span },
      );
    },

    calls() {
      return {
        'stock inquiry, today': () => services.stock.inquire(tenantId, { sku }),
        'stock inquiry, asOf half a year back': () => services.stock.inquire(tenantId, { sku, asOf: halfYearAgo() }),
        'movements of an item, a page of 100': () =>
          services.ledger.movements(tenantId, { sku, since: halfYearAgo(), limit: 100 }),
        'movements of the tenant, a page of 100': () =>
          services.ledger.movements(tenantId, { since: halfYearAgo(), limit: 100 }),
      };
    },
  };
}
