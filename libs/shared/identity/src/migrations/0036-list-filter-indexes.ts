import type { Migration } from '@wms/platform';

/**
 * An index for every filter the admin lists offer, each ending in the list's order (newest first, id as
 * tie-breaker), so a filtered page is one index range read however long the table grows: the audit log by
 * action, entity and tenant (by actor exists); a subscription's deliveries by status; events by type (the
 * delivery log's event filter); API keys, subscriptions and users by tenant in their lists' order (the lists
 * without a tenant read the creation-time indexes of the people-list paging). Built
 * CONCURRENTLY, one statement each: writers go on while they build.
 */
const INDEXES = [
  'audit_logs_action_idx ON audit_logs (action, created_at DESC, id DESC)',
  'audit_logs_entity_time_idx ON audit_logs (entity_type, entity_id, created_at DESC, id DESC)',
  'audit_logs_tenant_time_idx ON audit_logs (tenant_id, created_at DESC, id DESC)',
  'webhook_deliveries_status_idx ON webhook_deliveries (subscription_id, status, created_at DESC, id DESC)',
  'events_event_idx ON events (event, occurred_at DESC)',
  // The retention sweep picks the oldest events first.
  'events_time_idx ON events (occurred_at)',
  'api_keys_tenant_time_idx ON api_keys (tenant_id, created_at DESC, id DESC)',
  'webhook_subscriptions_tenant_time_idx ON webhook_subscriptions (tenant_id, created_at, id)',
  'users_tenant_email_idx ON users (tenant_id, email)',
];

/** Indexes these replace: the same leading columns without the list's tie-breaker. */
const REPLACED = ['audit_logs_entity_idx', 'audit_logs_tenant_idx', 'api_keys_tenant_idx', 'users_tenant_idx'];

export const listFilterIndexes: Migration = {
  name: '0036-list-filter-indexes',
  async up({ sequelize }) {
    for (const index of INDEXES) await sequelize.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${index}`);
    for (const index of REPLACED) await sequelize.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
  },
};
