import type { Migration } from '@wms/platform';

/**
 * File imports: the job (imports), its rows as uploaded (import_rows, filled by one COPY in the upload's
 * transaction), its chunks (the unit a worker writes in one transaction, with the counts it came to) and
 * its failed rows. Rows, chunks and errors are keyed by the import and the row's position in the file.
 */
export const imports: Migration = {
  name: '0040-imports',
  async up({ sequelize }) {
    await sequelize.query(`
      -- state: queued (stored, no chunk written) -> running -> completed | failed | cancelled.
      -- Exactly one of api_key_id (integration API) and user_id (portal) names who uploaded it.
      CREATE TABLE imports (
        id text PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        api_key_id uuid,
        user_id uuid,
        entity text NOT NULL,
        format text NOT NULL CHECK (format IN ('ndjson', 'csv')),
        -- The CSV header as uploaded (JSON array of column names), for the errors file in CSV.
        columns text,
        state text NOT NULL DEFAULT 'queued'
          CHECK (state IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
        total integer NOT NULL,
        chunk_rows integer NOT NULL,
        request_id text NOT NULL,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz
      );
      CREATE INDEX imports_unfinished_idx ON imports (created_at) WHERE state IN ('queued', 'running');
      CREATE INDEX imports_tenant_idx ON imports (tenant_id, created_at DESC);
      CREATE INDEX imports_api_key_idx ON imports (api_key_id) WHERE state IN ('queued', 'running');
      CREATE INDEX imports_user_idx ON imports (user_id) WHERE state IN ('queued', 'running');
      CREATE INDEX imports_finished_idx ON imports (finished_at) WHERE finished_at IS NOT NULL;

      -- n: the row's position among the file's rows (1..total); line: its line in the file. body: the NDJSON
      -- line as received, or the CSV record's values as a JSON array. No foreign key: COPY checks none per row.
      CREATE TABLE import_rows (
        import_id text NOT NULL,
        n integer NOT NULL,
        line integer NOT NULL,
        body text COMPRESSION lz4 NOT NULL,
        PRIMARY KEY (import_id, n)
      );

      -- A chunk is rows first_n..last_n; done once its writes committed (in the same transaction).
      CREATE TABLE import_chunks (
        import_id text NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
        chunk integer NOT NULL,
        first_n integer NOT NULL,
        last_n integer NOT NULL,
        done boolean NOT NULL DEFAULT false,
        created integer NOT NULL DEFAULT 0,
        updated integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        attempts integer NOT NULL DEFAULT 0,
        finished_at timestamptz,
        PRIMARY KEY (import_id, chunk)
      );
      CREATE INDEX import_chunks_pending_idx ON import_chunks (import_id, chunk) WHERE NOT done;

      CREATE TABLE import_errors (
        import_id text NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
        n integer NOT NULL,
        line integer NOT NULL,
        key text NOT NULL,
        code text NOT NULL,
        message text NOT NULL,
        details jsonb,
        PRIMARY KEY (import_id, n)
      );
    `);
  },
};
