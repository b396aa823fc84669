import type { Config } from '@wms/platform';
import type { Database } from '@wms/platform';
import type { Logger } from '@wms/platform';
import { unitOfWork } from '@wms/platform';
import { DEFAULT_TENANT_CODE, TenantsRepository, UsersRepository } from '@wms/identity';
import { hashPassword } from '@wms/identity';
import { DEFAULT_WAREHOUSE_CODE, RECEIVING_LOCATION_CODE, WarehousesRepository } from '@wms/warehouse';

/**
 * Creates tenant DEFAULT, its warehouse MAIN with location RECEIVING, and the admin user (no tenant), each
 * through the repository of the library that owns its table. Safe to run again and from several processes
 * at once: each row is inserted only when missing, and an existing admin keeps its password.
 */
export async function runSeed(
  db: Database,
  config: Pick<Config, 'seedAdmin' | 'bcryptRounds'>,
  logger?: Logger,
): Promise<void> {
  const tenants = new TenantsRepository(db);
  const warehouses = new WarehousesRepository(db);
  const users = new UsersRepository(db);
  const passwordHash = await hashPassword(config.seedAdmin.password, config.bcryptRounds);
  await unitOfWork(db, async (transaction) => {
    const tenantId = await tenants.ensure({ code: DEFAULT_TENANT_CODE, name: 'Default tenant' }, transaction);
    await warehouses.ensureWithReceiving(
      { tenantId, code: DEFAULT_WAREHOUSE_CODE, name: 'Main warehouse', receivingCode: RECEIVING_LOCATION_CODE },
      transaction,
    );
    const inserted = await users.insertIfMissing(
      {
        email: config.seedAdmin.email,
        passwordHash,
        firstName: 'System',
        lastName: 'Administrator',
        role: 'admin',
        tenantId: null,
      },
      transaction,
    );
    if (inserted)
      logger?.warn({ email: config.seedAdmin.email }, 'seeded admin user; change its password before production use');
  });
}
