import type { Config } from './config/index.js';
import type { Database } from './db/index.js';
import { AuthService } from './auth/index.js';
import { TenantsService } from './tenants/index.js';
import { WarehousesService } from './warehouses/index.js';
import { ApiKeysService } from './api-keys/index.js';
import { EventsService } from './events/index.js';
import { WebhooksService } from './webhooks/index.js';

/** The domain services of one process, built over its connections. Apps stay thin and call these. */
export function createServices(db: Database, config: Config) {
  return {
    auth: new AuthService(db, config),
    tenants: new TenantsService(db),
    warehouses: new WarehousesService(db),
    apiKeys: new ApiKeysService(db),
    events: new EventsService(db),
    webhooks: new WebhooksService(db, config),
  };
}

export type Services = ReturnType<typeof createServices>;
