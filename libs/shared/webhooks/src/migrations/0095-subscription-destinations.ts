import type { Migration } from '@wms/platform';

/**
 * Where a subscription delivers: `http` (its url, as before), `rabbitmq` or `nats`. `destination` keeps what is
 * not secret (exchange and routing-key template; stream and subject template); the broker's URL with its
 * password and any NATS credentials are sealed in `destination_secret_sealed` under SECRETS_ENCRYPTION_KEYS, as
 * the signing secret is, and `url` keeps the broker's URL with the password masked, for display.
 */
export const subscriptionDestinations: Migration = {
  name: '0095-subscription-destinations',
  async up({ sequelize }) {
    await sequelize.query(
      `ALTER TABLE webhook_subscriptions
         ADD COLUMN IF NOT EXISTS destination_kind text NOT NULL DEFAULT 'http'
           CONSTRAINT webhook_subscriptions_destination_kind CHECK (destination_kind IN ('http', 'rabbitmq', 'nats')),
         ADD COLUMN IF NOT EXISTS destination jsonb,
         ADD COLUMN IF NOT EXISTS destination_secret_sealed text`,
    );
  },
};
