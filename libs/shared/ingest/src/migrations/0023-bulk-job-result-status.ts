import type { Migration } from '@wms/platform';

/**
 * A completed bulk job's outcome (success, or partial when an entry has an error) in a column of its own, stored
 * with the result: the gateway answers 200 or 207 from it without reading inside the result's JSON text.
 */
export const bulkJobResultStatus: Migration = {
  name: '0023-bulk-job-result-status',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE bulk_jobs ADD COLUMN result_status text CHECK (result_status IN ('success', 'partial'));
      UPDATE bulk_jobs SET result_status = result::json ->> 'status' WHERE result IS NOT NULL;
    `);
  },
};
