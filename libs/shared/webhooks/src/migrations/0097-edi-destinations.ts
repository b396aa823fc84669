import type { Migration } from '@wms/platform';

/**
 * A subscription may deliver to a trading partner's EDI mailbox (`edi`): the partner's own subscription,
 * made and kept by the EDI library (ADR 0207), never by the subscriptions API. `destination` holds the
 * partner's id.
 */
export const ediDestinations: Migration = {
  name: '0097-edi-destinations',
  async up({ sequelize }) {
    await sequelize.query(
      `ALTER TABLE webhook_subscriptions DROP CONSTRAINT IF EXISTS webhook_subscriptions_destination_kind,
         ADD CONSTRAINT webhook_subscriptions_destination_kind CHECK (destination_kind IN ('http', 'rabbitmq', 'nats', 'edi'))`,
    );
  },
};
