import type { Migration } from '@wms/platform';

/**
 * A sandbox tenant: its API keys may run simulations (the real warehouse operations, as a system user) and
 * its events say `"sandbox": true`. Set when the tenant is created and never changed, so processes may keep
 * it once read.
 */
export const sandboxTenants: Migration = {
  name: '0050-sandbox-tenants',
  async up({ sequelize }) {
    await sequelize.query(`ALTER TABLE tenants ADD COLUMN IF NOT EXISTS sandbox boolean NOT NULL DEFAULT false;`);
  },
};
