import type { Migration } from '@wms/platform';
import { unitOfWork } from '@wms/platform';

/** Months of partitions made ahead of the current one here; the retention sweep keeps making them. */
const MONTHS_AHEAD = 3;

/**
 * The inventory ledger: one row per change of a stock row (what changed on hand and allocated, the balance
 * after, why, by which document, at whose request), partitioned by UTC month so retention drops whole
 * months. No foreign keys: an entry is written with every stock change and must cost the write little; the
 * kernel writes it from the stock row it has just changed. Balance checkpoints hold what a stock row held
 * at a moment the ledger no longer reaches (the balances before this migration, months dropped by
 * retention), so a balance is always its latest checkpoint plus the entries after it
 * (docs/adr/0202-inventory-ledger.md). Stock snapshots are the export jobs of a tenant's stock as of a time,
 * their NDJSON file kept in chunks.
 */
export const stockLedger: Migration = {
  name: '0059-stock-ledger',
  async up({ sequelize }) {
    await unitOfWork({ sequelize }, async (transaction) => {
      await sequelize.query(
        `
        CREATE SEQUENCE stock_movements_id_seq AS bigint;
        CREATE TABLE stock_movements (
          id bigint NOT NULL DEFAULT nextval('stock_movements_id_seq'),
          at timestamptz NOT NULL DEFAULT clock_timestamp(),
          tenant_id uuid NOT NULL,
          stock_row_id uuid NOT NULL,
          warehouse_id uuid NOT NULL,
          location_id uuid NOT NULL,
          item_id uuid NOT NULL,
          lot_no text NOT NULL,
          qty_on_hand_delta numeric(18, 4) NOT NULL,
          qty_allocated_delta numeric(18, 4) NOT NULL,
          qty_on_hand_after numeric(18, 4) NOT NULL,
          qty_allocated_after numeric(18, 4) NOT NULL,
          cause text NOT NULL CHECK (cause IN ('grn', 'allocation', 'release', 'pick', 'shipment', 'adjustment',
                                               'cycle_count', 'return', 'simulation')),
          document_no text,
          api_key_id uuid,
          user_id uuid,
          PRIMARY KEY (id, at)
        ) PARTITION BY RANGE (at);
        ALTER SEQUENCE stock_movements_id_seq OWNED BY stock_movements.id;
        CREATE INDEX stock_movements_row_idx ON stock_movements (stock_row_id, at, id);
        CREATE INDEX stock_movements_item_idx ON stock_movements (tenant_id, item_id, at, id);
        CREATE INDEX stock_movements_tenant_idx ON stock_movements (tenant_id, at, id);

        CREATE TABLE stock_checkpoints (
          stock_row_id uuid NOT NULL,
          at timestamptz NOT NULL,
          tenant_id uuid NOT NULL,
          qty_on_hand numeric(18, 4) NOT NULL,
          qty_allocated numeric(18, 4) NOT NULL,
          PRIMARY KEY (stock_row_id, at)
        );

        -- A snapshot export: the tenant's stock as of a time, written by a job as an NDJSON file in chunks.
        CREATE TABLE stock_snapshots (
          id text PRIMARY KEY,
          tenant_id uuid NOT NULL REFERENCES tenants(id),
          api_key_id uuid,
          warehouse_id uuid REFERENCES warehouses(id),
          as_of timestamptz NOT NULL,
          state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'completed', 'failed')),
          rows integer,
          error text,
          created_at timestamptz NOT NULL DEFAULT now(),
          finished_at timestamptz
        );
        CREATE INDEX stock_snapshots_created_idx ON stock_snapshots (created_at);
        CREATE TABLE stock_snapshot_chunks (
          snapshot_id text NOT NULL REFERENCES stock_snapshots(id) ON DELETE CASCADE,
          chunk_no integer NOT NULL,
          body text NOT NULL,
          PRIMARY KEY (snapshot_id, chunk_no)
        );

        DO $$
        DECLARE
          month date;
        BEGIN
          FOR month IN SELECT generate_series(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month',
                                              date_trunc('month', now() AT TIME ZONE 'UTC') + interval '${MONTHS_AHEAD} months',
                                              interval '1 month')::date
          LOOP
            EXECUTE format('CREATE TABLE %I PARTITION OF stock_movements FOR VALUES FROM (%L) TO (%L)',
                           'stock_movements_p' || to_char(month, 'YYYYMM'),
                           month::text || ' 00:00:00+00', (month + interval '1 month')::date::text || ' 00:00:00+00');
          END LOOP;
        END $$;

        INSERT INTO stock_checkpoints (stock_row_id, at, tenant_id, qty_on_hand, qty_allocated)
        SELECT id, now(), tenant_id, qty_on_hand, qty_allocated FROM stock_rows
         WHERE qty_on_hand <> 0 OR qty_allocated <> 0;
      `,
        { transaction },
      );
    });
  },
};
