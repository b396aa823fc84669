import type { Migration } from '@wms/platform';

/**
 * Whether a bulk job's caller was answered 202 because its wait ran out (a `Prefer: respond-async` call is
 * in the async lane from the start): such a job appends `bulk.completed` when it ends, in the transaction
 * that stores its end. Adding a column with a constant default rewrites nothing.
 */
export const bulkJobAnsweredAccepted: Migration = {
  name: '0064-bulk-job-answered-accepted',
  async up({ sequelize }) {
    await sequelize.query('ALTER TABLE bulk_jobs ADD COLUMN answered_accepted boolean NOT NULL DEFAULT false');
  },
};
