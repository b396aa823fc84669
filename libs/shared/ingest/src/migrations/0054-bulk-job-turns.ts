import type { Migration } from '@wms/platform';

/**
 * Bulk jobs take turns by tenant within their lane (ADR 0190): a synchronous call's job and an
 * asynchronous one are in lanes of their own, and each job's turn is its tenant's next one, never earlier
 * than the lane's oldest queued turn. The partial indexes answer the two look-ups every submission makes:
 * the lane's oldest queued turn and the tenant's last.
 */
export const bulkJobTurns: Migration = {
  name: '0054-bulk-job-turns',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE bulk_jobs
        ADD COLUMN IF NOT EXISTS lane text NOT NULL DEFAULT 'sync' CHECK (lane IN ('sync', 'async')),
        ADD COLUMN IF NOT EXISTS turn integer NOT NULL DEFAULT 1;
      CREATE INDEX IF NOT EXISTS bulk_jobs_lane_turn_idx ON bulk_jobs (lane, turn) WHERE state = 'queued';
      CREATE INDEX IF NOT EXISTS bulk_jobs_tenant_turn_idx ON bulk_jobs (tenant_id, lane, turn) WHERE state = 'queued';
    `);
  },
};
