import type { Migration } from '@wms/platform';

/**
 * Documents and stock: ASNs and GRNs (inbound), sales orders with their allocations, pick tasks and
 * shipments (outbound), stock rows, and the sequences behind document numbers.
 * Quantities are numeric(18,4): exact sums, four decimals for weights and volumes.
 */
export const documents: Migration = {
  name: '0006-documents',
  async up({ sequelize }) {
    await sequelize.query(`
      -- Document numbers <KIND>-YYYYMMDD-NNNNNN take NNNNNN from one sequence per kind: nextval never
      -- blocks and never hands a value out twice, whatever the concurrency, and it is called on the
      -- document transaction's own connection (see numbering/document-numbers.ts).
      CREATE SEQUENCE asn_number_seq;
      CREATE SEQUENCE grn_number_seq;
      CREATE SEQUENCE sales_order_number_seq;
      CREATE SEQUENCE shipment_number_seq;

      -- One row per (warehouse, location, item, lot); lot_no is '' for an item without lots, so the key is
      -- truly unique. The CHECK is the last line of defence: available (on hand - allocated) never < 0.
      CREATE TABLE stock_rows (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        warehouse_id uuid NOT NULL REFERENCES warehouses(id),
        location_id uuid NOT NULL REFERENCES locations(id),
        item_id uuid NOT NULL REFERENCES items(id),
        lot_no text NOT NULL DEFAULT '',
        expiry_date date,
        qty_on_hand numeric(18, 4) NOT NULL DEFAULT 0,
        qty_allocated numeric(18, 4) NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT stock_rows_key UNIQUE (warehouse_id, location_id, item_id, lot_no),
        CONSTRAINT stock_rows_never_negative CHECK (qty_allocated >= 0 AND qty_on_hand >= qty_allocated)
      );
      CREATE INDEX stock_rows_item_idx ON stock_rows (tenant_id, item_id, warehouse_id);

      CREATE TABLE asns (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        asn_no text NOT NULL,
        reference_no text NOT NULL,
        warehouse_id uuid NOT NULL REFERENCES warehouses(id),
        supplier_id uuid NOT NULL REFERENCES partners(id),
        expected_date date,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'receiving', 'completed')),
        completed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT asns_number_key UNIQUE (tenant_id, asn_no),
        CONSTRAINT asns_reference_key UNIQUE (tenant_id, reference_no)
      );
      CREATE INDEX asns_updated_idx ON asns (tenant_id, updated_at, id);
      CREATE INDEX asns_status_updated_idx ON asns (tenant_id, status, updated_at, id);

      CREATE TABLE asn_lines (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        asn_id uuid NOT NULL REFERENCES asns(id) ON DELETE CASCADE,
        line_no integer NOT NULL CHECK (line_no > 0),
        item_id uuid NOT NULL REFERENCES items(id),
        uom_code text NOT NULL,
        expected_qty numeric(18, 4) NOT NULL CHECK (expected_qty > 0),
        received_qty numeric(18, 4) NOT NULL DEFAULT 0,
        lot_no text,
        expiry_date date,
        CONSTRAINT asn_lines_line_key UNIQUE (asn_id, line_no),
        CONSTRAINT asn_lines_no_over_receipt CHECK (received_qty >= 0 AND received_qty <= expected_qty)
      );

      CREATE TABLE grns (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        grn_no text NOT NULL,
        asn_id uuid REFERENCES asns(id),
        warehouse_id uuid NOT NULL REFERENCES warehouses(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT grns_number_key UNIQUE (tenant_id, grn_no)
      );
      CREATE INDEX grns_asn_idx ON grns (asn_id);

      CREATE TABLE grn_lines (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        grn_id uuid NOT NULL REFERENCES grns(id) ON DELETE CASCADE,
        line_no integer NOT NULL CHECK (line_no > 0),
        asn_line_id uuid REFERENCES asn_lines(id),
        item_id uuid NOT NULL REFERENCES items(id),
        uom_code text NOT NULL,
        qty numeric(18, 4) NOT NULL CHECK (qty > 0),
        lot_no text NOT NULL DEFAULT '',
        expiry_date date,
        location_id uuid NOT NULL REFERENCES locations(id),
        stock_row_id uuid NOT NULL REFERENCES stock_rows(id),
        CONSTRAINT grn_lines_line_key UNIQUE (grn_id, line_no)
      );

      CREATE TABLE sales_orders (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        order_no text NOT NULL,
        reference_no text NOT NULL,
        warehouse_id uuid NOT NULL REFERENCES warehouses(id),
        customer_id uuid NOT NULL REFERENCES partners(id),
        required_date date,
        priority integer NOT NULL DEFAULT 0,
        ship_to jsonb,
        status text NOT NULL DEFAULT 'open'
          CHECK (status IN ('open', 'allocated', 'released', 'picked', 'shipped', 'cancelled')),
        cancelled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sales_orders_number_key UNIQUE (tenant_id, order_no),
        CONSTRAINT sales_orders_reference_key UNIQUE (tenant_id, reference_no)
      );
      CREATE INDEX sales_orders_updated_idx ON sales_orders (tenant_id, updated_at, id);
      CREATE INDEX sales_orders_status_updated_idx ON sales_orders (tenant_id, status, updated_at, id);

      -- qty_allocated counts what was ever allocated to the line and not given back (picked included);
      -- qty_picked what left its location for the order; qty_shipped what left the warehouse.
      CREATE TABLE sales_order_lines (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        order_id uuid NOT NULL REFERENCES sales_orders(id) ON DELETE CASCADE,
        line_no integer NOT NULL CHECK (line_no > 0),
        item_id uuid NOT NULL REFERENCES items(id),
        uom_code text NOT NULL,
        qty_ordered numeric(18, 4) NOT NULL CHECK (qty_ordered > 0),
        qty_allocated numeric(18, 4) NOT NULL DEFAULT 0,
        qty_picked numeric(18, 4) NOT NULL DEFAULT 0,
        qty_shipped numeric(18, 4) NOT NULL DEFAULT 0,
        CONSTRAINT sales_order_lines_line_key UNIQUE (order_id, line_no),
        CONSTRAINT sales_order_lines_quantities CHECK (
          qty_allocated >= 0 AND qty_allocated <= qty_ordered
          AND qty_picked >= 0 AND qty_picked <= qty_ordered
          AND qty_shipped >= 0 AND qty_shipped <= qty_picked)
      );

      -- An allocation reserves qty of one stock row for one order line; qty is what is still reserved
      -- (it is part of stock_rows.qty_allocated). Picking or cancelling brings it down to 0.
      CREATE TABLE allocations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        order_id uuid NOT NULL REFERENCES sales_orders(id),
        order_line_id uuid NOT NULL REFERENCES sales_order_lines(id),
        stock_row_id uuid NOT NULL REFERENCES stock_rows(id),
        qty numeric(18, 4) NOT NULL CHECK (qty >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX allocations_order_idx ON allocations (order_id);
      CREATE INDEX allocations_stock_row_idx ON allocations (stock_row_id);

      -- One task per allocation at release. Confirming takes qty_picked off the stock row's on hand (and
      -- the task's qty off its allocated); cancelling the order puts qty_picked back on that row.
      CREATE TABLE pick_tasks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        order_id uuid NOT NULL REFERENCES sales_orders(id),
        order_line_id uuid NOT NULL REFERENCES sales_order_lines(id),
        allocation_id uuid NOT NULL REFERENCES allocations(id),
        stock_row_id uuid NOT NULL REFERENCES stock_rows(id),
        location_id uuid NOT NULL REFERENCES locations(id),
        lot_no text NOT NULL DEFAULT '',
        qty numeric(18, 4) NOT NULL CHECK (qty > 0),
        qty_picked numeric(18, 4) NOT NULL DEFAULT 0 CHECK (qty_picked >= 0 AND qty_picked <= qty),
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'picked', 'cancelled')),
        confirmed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX pick_tasks_order_idx ON pick_tasks (order_id);

      CREATE TABLE shipments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        order_id uuid NOT NULL REFERENCES sales_orders(id),
        shipment_no text NOT NULL,
        carrier text,
        tracking_no text,
        shipped_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT shipments_number_key UNIQUE (tenant_id, shipment_no)
      );
      CREATE INDEX shipments_order_idx ON shipments (order_id);
    `);
  },
};
