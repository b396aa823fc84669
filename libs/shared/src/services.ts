import type { Config } from './config/index.js';
import type { Database } from './db/index.js';
import { AuthService } from './auth/index.js';
import { TenantsService } from './tenants/index.js';
import { WarehousesService } from './warehouses/index.js';
import { ApiKeysService } from './api-keys/index.js';
import { UsersService } from './users/index.js';
import { IdempotencyService } from './idempotency/index.js';
import { MasterDataService } from './master-data/index.js';
import type { IngestRegistry } from './integration/index.js';
import { createIngestRegistry, type IngestEntity } from './ingest-entities.js';
import { AuditService } from './audit/index.js';
import { EventsService } from './events/index.js';
import { WebhookLifecycleService, WebhooksService } from './webhooks/index.js';
import { OverviewService } from './overview/index.js';
import { AsnService, GrnService } from './inbound/index.js';
import { OrdersService } from './outbound/index.js';
import { StockService } from './inventory/index.js';
import { AllocationService, PickingService, ShippingService } from './outbound/index.js';
import { AdjustmentsService, CycleCountsService } from './inventory/index.js';

/** The domain services of one process, built over its connections. Apps stay thin and call these. */
export function createServices(db: Database, config: Config) {
  const audit = new AuditService(db);
  const masterData = new MasterDataService(db);
  const asns = new AsnService(db);
  const events = new EventsService(db, { checkData: config.nodeEnv !== 'production' });
  const orders = new OrdersService(db, events);
  const webhooks = new WebhooksService(db, config, audit, events);
  const ingest: IngestRegistry<IngestEntity> = createIngestRegistry({ masterData, asns, orders });
  return {
    auth: new AuthService(db, config),
    tenants: new TenantsService(db),
    warehouses: new WarehousesService(db),
    apiKeys: new ApiKeysService(db, audit),
    audit,
    users: new UsersService(db, config, audit),
    masterData,
    idempotency: new IdempotencyService(db, config),
    /** The entities of the integration API (single and bulk writes); capabilities append their handlers. */
    ingest,
    events,
    webhooks,
    webhookLifecycle: new WebhookLifecycleService(db, webhooks, events),
    overview: new OverviewService(db),
    asns,
    grns: new GrnService(db, events),
    orders,
    stock: new StockService(db),
    allocation: new AllocationService(db, events),
    picking: new PickingService(db, events),
    shipping: new ShippingService(db, events),
    adjustments: new AdjustmentsService(db, events),
    cycleCounts: new CycleCountsService(db, events),
  };
}

export type Services = ReturnType<typeof createServices>;
