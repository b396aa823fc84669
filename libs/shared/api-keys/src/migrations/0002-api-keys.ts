import type { Migration } from '@wms/platform';

export const apiKeys: Migration = {
  name: '0002-api-keys',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        scopes text[] NOT NULL,
        tenant_id uuid REFERENCES tenants(id),
        expires_at timestamptz,
        ip_whitelist text[] NOT NULL DEFAULT '{}',
        allowed_origins text[] NOT NULL DEFAULT '{}',
        rate_limit_per_minute integer NOT NULL DEFAULT 0 CHECK (rate_limit_per_minute >= 0),
        active boolean NOT NULL DEFAULT true,
        key_hash text NOT NULL UNIQUE,
        key_prefix text NOT NULL,
        created_by uuid REFERENCES users(id),
        last_used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX api_keys_tenant_idx ON api_keys (tenant_id);

      CREATE TABLE api_key_request_logs (
        id bigserial PRIMARY KEY,
        api_key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
        endpoint text NOT NULL,
        method text NOT NULL,
        ip text,
        origin text,
        status_code integer NOT NULL,
        response_time_ms double precision NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX api_key_request_logs_key_time_idx ON api_key_request_logs (api_key_id, created_at DESC);
      CREATE INDEX api_key_request_logs_time_idx ON api_key_request_logs (created_at);
    `);
  },
};
