import type { Migration } from '@wms/platform';

/**
 * Items and partners (master data pushed by integrators) and the idempotency records of the
 * integration API. Locations already exist (0001-foundation); their natural key is (warehouse, code).
 */
export const masterData: Migration = {
  name: '0003-master-data',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        sku text NOT NULL,
        name text NOT NULL,
        barcode text,
        base_uom_code text NOT NULL,
        category text,
        tracking text NOT NULL DEFAULT 'none' CHECK (tracking IN ('none', 'lot', 'serial')),
        shelf_life_days integer CHECK (shelf_life_days >= 0),
        weight_kg numeric(14, 4) CHECK (weight_kg >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, sku)
      );

      CREATE TABLE partners (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        code text NOT NULL,
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('supplier', 'customer', 'carrier', 'other')),
        contact jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, code)
      );

      -- One row per (API key, Idempotency-Key). claim_id names one generation of the key (it changes
      -- when an expired key is used again) and is the BullMQ job id of a bulk call; token names the
      -- request that currently holds the claim, whose lease lets a retry take over from a dead gateway.
      CREATE TABLE idempotency_records (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        api_key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
        idempotency_key text NOT NULL,
        fingerprint text NOT NULL,
        state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
        claim_id uuid NOT NULL,
        token uuid NOT NULL,
        lease_until timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        response_status integer,
        response_body text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (api_key_id, idempotency_key)
      );
      CREATE INDEX idempotency_records_expires_idx ON idempotency_records (expires_at);
    `);
  },
};
