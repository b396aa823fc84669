import type { Migration } from '@wms/platform';

/**
 * Customer returns (RMAs): a return of a shipped sales order with its lines, and each receipt of it with the
 * disposition of every line received (restock, quarantine, scrap).
 */
export const returns: Migration = {
  name: '0062-returns',
  async up({ sequelize }) {
    await sequelize.query(`
      -- rma_no is the shop's or ERP's own number, unique per tenant. The warehouse is the order's: the
      -- goods come back to where they left.
      CREATE TABLE returns (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        rma_no text NOT NULL,
        order_id uuid NOT NULL REFERENCES sales_orders(id),
        warehouse_id uuid NOT NULL REFERENCES warehouses(id),
        status text NOT NULL DEFAULT 'open'
          CHECK (status IN ('open', 'partially_received', 'received', 'closed', 'cancelled')),
        received_at timestamptz,
        closed_at timestamptz,
        cancelled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT returns_rma_key UNIQUE (tenant_id, rma_no)
      );
      CREATE INDEX returns_updated_idx ON returns (tenant_id, updated_at, id);
      CREATE INDEX returns_status_updated_idx ON returns (tenant_id, status, updated_at, id);
      CREATE INDEX returns_order_idx ON returns (order_id);

      -- lot_no is '' when the return does not name a lot; the receipt then names it.
      CREATE TABLE return_lines (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        return_id uuid NOT NULL REFERENCES returns(id) ON DELETE CASCADE,
        line_no integer NOT NULL CHECK (line_no > 0),
        item_id uuid NOT NULL REFERENCES items(id),
        qty numeric(18, 4) NOT NULL CHECK (qty > 0),
        received_qty numeric(18, 4) NOT NULL DEFAULT 0,
        lot_no text NOT NULL DEFAULT '',
        reason text,
        CONSTRAINT return_lines_line_key UNIQUE (return_id, line_no),
        CONSTRAINT return_lines_no_over_receipt CHECK (received_qty >= 0 AND received_qty <= qty)
      );

      CREATE TABLE return_receipts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        return_id uuid NOT NULL REFERENCES returns(id) ON DELETE CASCADE,
        actor_id uuid,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX return_receipts_return_idx ON return_receipts (return_id, created_at);

      -- A scrapped line puts nothing on hand: it has no location and no stock row.
      CREATE TABLE return_receipt_lines (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        receipt_id uuid NOT NULL REFERENCES return_receipts(id) ON DELETE CASCADE,
        line_no integer NOT NULL CHECK (line_no > 0),
        return_line_id uuid NOT NULL REFERENCES return_lines(id),
        qty numeric(18, 4) NOT NULL CHECK (qty > 0),
        lot_no text NOT NULL DEFAULT '',
        disposition text NOT NULL CHECK (disposition IN ('restock', 'quarantine', 'scrap')),
        location_id uuid REFERENCES locations(id),
        stock_row_id uuid REFERENCES stock_rows(id),
        CONSTRAINT return_receipt_lines_line_key UNIQUE (receipt_id, line_no),
        CONSTRAINT return_receipt_lines_place CHECK ((disposition = 'scrap') = (location_id IS NULL))
      );
    `);
  },
};
