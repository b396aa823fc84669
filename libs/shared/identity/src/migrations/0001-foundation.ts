import type { Migration } from '@wms/platform';

export const foundation: Migration = {
  name: '0001-foundation',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE tenants (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        code text NOT NULL UNIQUE,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL UNIQUE CHECK (email = lower(btrim(email))),
        password_hash text NOT NULL,
        first_name text NOT NULL DEFAULT '',
        last_name text NOT NULL DEFAULT '',
        role text NOT NULL CHECK (role IN ('admin', 'manager', 'supervisor', 'operator', 'viewer')),
        language text NOT NULL DEFAULT 'en',
        tenant_id uuid REFERENCES tenants(id),
        admin_modules text[] NOT NULL DEFAULT '{}',
        admin_modules_write text[] NOT NULL DEFAULT '{}',
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'locked')),
        failed_login_count integer NOT NULL DEFAULT 0,
        last_login_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX users_tenant_idx ON users (tenant_id);

      CREATE TABLE warehouses (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        code text NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, code)
      );

      CREATE TABLE locations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        warehouse_id uuid NOT NULL REFERENCES warehouses(id),
        code text NOT NULL,
        zone text,
        type text NOT NULL DEFAULT 'storage',
        pick_face boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (warehouse_id, code)
      );
      CREATE INDEX locations_tenant_idx ON locations (tenant_id);

      CREATE TABLE audit_logs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid REFERENCES tenants(id),
        action text NOT NULL,
        entity_type text NOT NULL,
        entity_id text NOT NULL,
        actor_user_id uuid REFERENCES users(id),
        changes jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX audit_logs_entity_idx ON audit_logs (entity_type, entity_id, created_at DESC);
      CREATE INDEX audit_logs_tenant_idx ON audit_logs (tenant_id, created_at DESC);
    `);
  },
};
