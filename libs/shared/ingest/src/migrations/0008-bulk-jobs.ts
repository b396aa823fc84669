import type { Migration } from '@wms/platform';

/**
 * Bulk jobs kept in PostgreSQL: a bulk call is answered 202 (or waited for) only once its job is committed
 * here; Redis (BullMQ) only dispatches it, so a job Redis loses is dispatched again from this table.
 */
export const bulkJobs: Migration = {
  name: '0008-bulk-jobs',
  async up({ sequelize }) {
    await sequelize.query(`
      -- state: queued (accepted, not written) → written (its one statement committed, result not stored yet)
      -- → completed (result stored), or failed (every attempt failed). entries, outcome and result are JSON
      -- text: stored as received and read back whole, never queried inside, so no jsonb parse is paid (and
      -- a string PostgreSQL's jsonb refuses, such as a NUL escape, is still kept as an entry to refuse).
      -- lz4 compresses these large values far faster than the default pglz.
      CREATE TABLE bulk_jobs (
        id text PRIMARY KEY,
        entity text NOT NULL,
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        api_key_id uuid NOT NULL,
        request_id text NOT NULL,
        trace_id text,
        state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'written', 'completed', 'failed')),
        entries text COMPRESSION lz4 NOT NULL,
        -- What the job's one statement returned, stored by that statement: a re-run reports it instead of
        -- writing again.
        outcome text COMPRESSION lz4,
        result text COMPRESSION lz4,
        error text,
        -- Last time the job was handed to BullMQ (or checked there); null = not handed yet.
        dispatched_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      );
      -- The dispatcher's look-up: unfinished jobs, oldest hand-over first.
      CREATE INDEX bulk_jobs_unfinished_idx ON bulk_jobs (dispatched_at NULLS FIRST)
        WHERE state IN ('queued', 'written');
      -- The purge's look-up.
      CREATE INDEX bulk_jobs_finished_idx ON bulk_jobs (finished_at) WHERE finished_at IS NOT NULL;
    `);
  },
};
