import type { Migration } from '@wms/platform';

/**
 * A subscription's optional filter: a MongoDB-style query over the event data, checked when saved and
 * tested by the relay at fan-out (an event it does not match gets no delivery row).
 */
export const webhookFilters: Migration = {
  name: '0045-webhook-filters',
  async up({ sequelize }) {
    await sequelize.query(`ALTER TABLE webhook_subscriptions ADD COLUMN IF NOT EXISTS filter jsonb;`);
  },
};
