import type { Migration } from '../migration.js';

/**
 * Idempotency-Key for people as well as systems: a record belongs to an API key (integration API) or to
 * a user (warehouse operations), never both, and a key is unique per owner.
 */
export const userIdempotency: Migration = {
  name: '0010-user-idempotency',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE idempotency_records
        ALTER COLUMN api_key_id DROP NOT NULL,
        ADD COLUMN user_id uuid REFERENCES users(id) ON DELETE CASCADE,
        ADD CONSTRAINT idempotency_records_one_owner CHECK ((api_key_id IS NULL) <> (user_id IS NULL)),
        ADD CONSTRAINT idempotency_records_user_key UNIQUE (user_id, idempotency_key);
    `);
  },
};
