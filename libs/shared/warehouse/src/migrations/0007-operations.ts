import type { Migration } from '@wms/platform';

/**
 * Warehouse operations: the record of stock adjustments and cycle counts (who changed stock, why, and
 * what it was after), and an index the pick-task steps look tasks up by.
 */
export const operations: Migration = {
  name: '0007-operations',
  async up({ sequelize }) {
    await sequelize.query(`
      -- A count of one stock key. system_qty is what the row had on hand when counted (0 when there was
      -- no row); qty_adjusted what the count changed on hand by; unresolved_qty what it could not take
      -- off because allocations still reserve it (on hand never goes below allocated).
      CREATE TABLE cycle_counts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        stock_row_id uuid REFERENCES stock_rows(id),
        warehouse_id uuid NOT NULL REFERENCES warehouses(id),
        location_id uuid NOT NULL REFERENCES locations(id),
        item_id uuid NOT NULL REFERENCES items(id),
        lot_no text NOT NULL DEFAULT '',
        system_qty numeric(18, 4) NOT NULL,
        counted_qty numeric(18, 4) NOT NULL CHECK (counted_qty >= 0),
        qty_adjusted numeric(18, 4) NOT NULL DEFAULT 0,
        unresolved_qty numeric(18, 4) NOT NULL DEFAULT 0 CHECK (unresolved_qty >= 0),
        counted_by uuid,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX cycle_counts_stock_row_idx ON cycle_counts (stock_row_id, created_at);

      -- Every change of on hand made by hand: an adjustment, or the one a cycle count makes.
      CREATE TABLE stock_adjustments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        stock_row_id uuid NOT NULL REFERENCES stock_rows(id),
        qty_delta numeric(18, 4) NOT NULL CHECK (qty_delta <> 0),
        qty_on_hand numeric(18, 4) NOT NULL,
        reason text NOT NULL,
        cycle_count_id uuid REFERENCES cycle_counts(id),
        adjusted_by uuid,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX stock_adjustments_stock_row_idx ON stock_adjustments (stock_row_id, created_at);

      CREATE INDEX pick_tasks_allocation_idx ON pick_tasks (allocation_id);
    `);
  },
};
