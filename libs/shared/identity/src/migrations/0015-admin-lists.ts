import type { Migration } from '@wms/platform';

/**
 * What the admin portal's lists read by: the audit log newest first with no filter or by actor, and a
 * subscription's delivery log newest first with the id as tie-breaker (entries written in one
 * transaction share their time), so each page is an index range scan, however long the log grows.
 */
export const adminLists: Migration = {
  name: '0015-admin-lists',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE INDEX audit_logs_time_idx ON audit_logs (created_at DESC, id DESC);
      CREATE INDEX audit_logs_actor_idx ON audit_logs (actor_user_id, created_at DESC, id DESC);
      DROP INDEX webhook_deliveries_subscription_idx;
      CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (subscription_id, created_at DESC, id DESC);
    `);
  },
};
