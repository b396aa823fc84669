import type { Config } from '@wms/platform';
import type { Database } from '@wms/platform';
import type { Logger } from '@wms/platform';
import { DEFAULT_TENANT_CODE } from '@wms/identity';
import { hashPassword } from '@wms/identity';
import { DEFAULT_WAREHOUSE_CODE, RECEIVING_LOCATION_CODE } from '@wms/warehouse';

/**
 * Creates tenant DEFAULT, its warehouse MAIN with location RECEIVING, and the admin user (no tenant).
 * Safe to run again and from several processes at once: each row is inserted only when missing, and
 * an existing admin keeps its password.
 */
export async function runSeed(
  db: Database,
  config: Pick<Config, 'seedAdmin' | 'bcryptRounds'>,
  logger?: Logger,
): Promise<void> {
  const { sequelize } = db;
  const passwordHash = await hashPassword(config.seedAdmin.password, config.bcryptRounds);
  await sequelize.transaction(async (transaction) => {
    const query = (sql: string, replacements: Record<string, unknown>) =>
      sequelize.query(sql, { replacements, transaction });
    await query(`INSERT INTO tenants (code, name) VALUES (:code, 'Default tenant') ON CONFLICT (code) DO NOTHING`, {
      code: DEFAULT_TENANT_CODE,
    });
    await query(
      `INSERT INTO warehouses (tenant_id, code, name)
       SELECT id, :warehouse, 'Main warehouse' FROM tenants WHERE code = :tenant
       ON CONFLICT (tenant_id, code) DO NOTHING`,
      { tenant: DEFAULT_TENANT_CODE, warehouse: DEFAULT_WAREHOUSE_CODE },
    );
    await query(
      `INSERT INTO locations (tenant_id, warehouse_id, code, zone, type)
       SELECT w.tenant_id, w.id, :location, 'RECEIVING', 'receiving'
         FROM warehouses w JOIN tenants t ON t.id = w.tenant_id
        WHERE t.code = :tenant AND w.code = :warehouse
       ON CONFLICT (warehouse_id, code) DO NOTHING`,
      { tenant: DEFAULT_TENANT_CODE, warehouse: DEFAULT_WAREHOUSE_CODE, location: RECEIVING_LOCATION_CODE },
    );
    const [, inserted] = (await query(
      `INSERT INTO users (email, password_hash, first_name, last_name, role, tenant_id)
       VALUES (:email, :passwordHash, 'System', 'Administrator', 'admin', NULL)
       ON CONFLICT (email) DO NOTHING`,
      { email: config.seedAdmin.email, passwordHash },
    )) as [unknown, number];
    if (inserted)
      logger?.warn({ email: config.seedAdmin.email }, 'seeded admin user; change its password before production use');
  });
}
