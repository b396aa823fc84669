import type { Config } from '@wms/platform';
import type { Database } from '@wms/platform';
import { AuthService } from '@wms/identity';
import { TenantsService } from '@wms/identity';
import { WarehousesService } from '@wms/warehouse';
import { ApiKeysRepository, ApiKeysService } from '@wms/api-keys';
import {
  EdiDocumentsService,
  EdiOutbound,
  SftpAccountService,
  TradingPartnersService,
  documentLookups,
  type EdiOutboundControl,
} from '@wms/edi';
import { SecretBox } from '@wms/webhooks';
import { UsersService } from '@wms/identity';
import { IdempotencyService } from '@wms/platform';
import { CatalogueService, MasterDataService } from '@wms/warehouse';
import type { IngestRegistry } from '@wms/ingest';
import { createIngestRegistry, type IngestEntity } from '@wms/ingest';
import { AuditService } from '@wms/identity';
import { EventsService } from '@wms/events';
import { WebhookLifecycleService, WebhooksService } from '@wms/webhooks';
import { OverviewService } from '@wms/overview';
import { AsnService, GrnService } from '@wms/warehouse';
import { OrdersService } from '@wms/warehouse';
import { StockLedgerService, StockService } from '@wms/warehouse';
import { AllocationService, PickingService, ShippingService } from '@wms/warehouse';
import { AdjustmentsService, CycleCountsService } from '@wms/warehouse';
import { SimulationsService } from '@wms/warehouse';
import { ReturnReceiptsService, ReturnsService } from '@wms/warehouse';

/** What a process plugs into its services from the parts that live beside the gateway's. */
export interface ServicesWiring {
  /** The EDI outbound side (partners' subscriptions, resend, on-demand 846); by default the library's own. */
  ediOutbound?: EdiOutboundControl;
}

/** The trading partners' administration, their SFTP accounts and documents (EDI, ADR 0207). */
function createEdiServices(
  db: Database,
  config: Config,
  deps: { audit: AuditService; warehouses: WarehousesService; outbound: EdiOutboundControl },
) {
  const partners = new TradingPartnersService(db, { ...deps, apiKeys: new ApiKeysRepository(db) });
  return {
    partners,
    sftp: new SftpAccountService(db, partners, config.bcryptRounds),
    documents: new EdiDocumentsService(db, partners, deps.outbound),
  };
}

/** The domain services of one process, built over its connections. Apps stay thin and call these. */
export function createServices(db: Database, config: Config, wiring: ServicesWiring = {}) {
  const audit = new AuditService(db);
  const warehouses = new WarehousesService(db);
  const masterData = new MasterDataService(db);
  const asns = new AsnService(db);
  const events = new EventsService(db, { checkData: config.nodeEnv !== 'production' });
  const orders = new OrdersService(db, events);
  const returns = new ReturnsService(db);
  const webhooks = new WebhooksService(db, config, audit, events);
  const ingest: IngestRegistry<IngestEntity> = createIngestRegistry({ masterData, asns, orders, returns });
  return {
    auth: new AuthService(db, config),
    tenants: new TenantsService(db),
    warehouses,
    apiKeys: new ApiKeysService(db, audit, config.apiVersions.defaultVersion),
    audit,
    users: new UsersService(db, config, audit),
    masterData,
    catalogue: new CatalogueService(db),
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
    ledger: new StockLedgerService(db),
    allocation: new AllocationService(db, events),
    picking: new PickingService(db, events),
    shipping: new ShippingService(db, events),
    adjustments: new AdjustmentsService(db, events),
    cycleCounts: new CycleCountsService(db, events),
    returns,
    returnReceipts: new ReturnReceiptsService(db, events),
    simulations: new SimulationsService(db, events, audit),
    edi: createEdiServices(db, config, {
      audit,
      warehouses,
      outbound: wiring.ediOutbound ?? new EdiOutbound(db, SecretBox.fromConfig(config), documentLookups(db)),
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
