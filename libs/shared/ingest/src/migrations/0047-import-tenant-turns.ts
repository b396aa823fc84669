import type { Migration } from '@wms/platform';

/**
 * Imports take turns per tenant: a tenant's chains of turns pick, each time, the unfinished import of
 * that tenant whose last turn is oldest (`last_turn_at`), so tenants share the workers evenly however many
 * files each has running, and a tenant's own files share its turns.
 */
export const importTenantTurns: Migration = {
  name: '0047-import-tenant-turns',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE imports ADD COLUMN IF NOT EXISTS last_turn_at timestamptz;
      CREATE INDEX IF NOT EXISTS imports_tenant_turn_idx ON imports (tenant_id, last_turn_at NULLS FIRST, created_at)
        WHERE state IN ('queued', 'running');
    `);
  },
};
