import type { Migration } from '@wms/platform';

/**
 * The failed sign-ins of e-mails that name no account, counted as an account's are, so that after the same
 * number of failures such an address answers as a locked account does. Keyed by a SHA-256 digest of the
 * normalised address (what was typed may be a password in the wrong field); rows untouched for a while
 * are deleted by the retention sweep (auth/address-locks.repository.ts).
 */
export const loginAddressLocks: Migration = {
  name: '0091-login-address-locks',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE IF NOT EXISTS login_address_locks (
        address_digest bytea PRIMARY KEY,
        failed_count integer NOT NULL,
        locked_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX IF NOT EXISTS login_address_locks_updated_at ON login_address_locks (updated_at);`);
  },
};
