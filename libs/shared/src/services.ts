import type { Config } from './config/index.js';
import type { Database } from './db/index.js';
import { AuthService } from './auth/index.js';
import { TenantsService } from './tenants/index.js';
import { WarehousesService } from './warehouses/index.js';
import { ApiKeysService } from './api-keys/index.js';
import { UsersService } from './users/index.js';
import { IdempotencyService } from './idempotency/index.js';
import { IngestRegistry } from './integration/index.js';
import { MasterDataService, masterDataIngestHandlers } from './master-data/index.js';
import { AuditService } from './audit/index.js';
import { EventsService } from './events/index.js';
import { WebhooksService } from './webhooks/index.js';

/** The domain services of one process, built over its connections. Apps stay thin and call these. */
export function createServices(db: Database, config: Config) {
  const audit = new AuditService(db);
  const masterData = new MasterDataService(db);
  return {
    auth: new AuthService(db, config),
    tenants: new TenantsService(db),
    warehouses: new WarehousesService(db),
    apiKeys: new ApiKeysService(db, audit),
    audit,
    users: new UsersService(db, config),
    masterData,
    idempotency: new IdempotencyService(db, config),
    /** The entities of the integration API (single and bulk writes); capabilities append their handlers. */
    ingest: new IngestRegistry([...masterDataIngestHandlers(masterData)]),
    events: new EventsService(db),
    webhooks: new WebhooksService(db, config),
  };
}

export type Services = ReturnType<typeof createServices>;
