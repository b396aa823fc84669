import type { Migration } from '@wms/platform';

/**
 * `password_changed_at` lets refresh refuse refresh tokens issued before the latest password change,
 * so a changed password ends every other session within one access-token lifetime.
 */
export const auth: Migration = {
  name: '0005-auth',
  async up({ sequelize }) {
    await sequelize.query(`ALTER TABLE users ADD COLUMN password_changed_at timestamptz`);
  },
};
