import type { Migration } from '@wms/platform';

/**
 * Each subscription's payload version: its deliveries, test deliveries and replays are rendered in it.
 * Subscriptions made before versions existed keep today's bodies (`2026-11-21`); one created now is given the
 * newest by the service.
 */
export const subscriptionApiVersions: Migration = {
  name: '0061-subscription-api-versions',
  async up({ sequelize }) {
    await sequelize.query(
      `ALTER TABLE webhook_subscriptions ADD COLUMN IF NOT EXISTS api_version text NOT NULL DEFAULT '2026-11-21'`,
    );
  },
};
