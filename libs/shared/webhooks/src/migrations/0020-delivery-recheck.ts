import type { Migration } from '@wms/platform';

/**
 * The relay's recheck walks pending deliveries by when their job was last seen in Redis; pending rows are
 * few at rest, so the partial index stays small however long the delivery log grows.
 */
export const deliveryRecheck: Migration = {
  name: '0020-delivery-recheck',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (enqueued_at) WHERE status = 'pending';
    `);
  },
};
