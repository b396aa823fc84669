import type { AsnService, MasterDataService, OrdersService, ReturnsService } from '@wms/warehouse';
import { IngestRegistry, type IngestEntityOf } from '../integration/index.js';
import { masterDataIngestHandlers } from './master-data.ingest.js';
import { asnIngestHandler } from './asn.ingest.js';
import { orderIngestHandler } from './orders.ingest.js';
import { returnIngestHandler } from './returns.ingest.js';

/**
 * The entities of the integration API (single and bulk writes): a capability that accepts them adds its
 * handlers here. The names of the handlers listed are the names an ingest job may have.
 */
export function createIngestRegistry(services: {
  masterData: MasterDataService;
  asns: AsnService;
  orders: OrdersService;
  returns: ReturnsService;
}) {
  return new IngestRegistry([
    ...masterDataIngestHandlers(services.masterData),
    asnIngestHandler(services.asns),
    orderIngestHandler(services.orders),
    returnIngestHandler(services.returns),
  ]);
}

/** The name of a registered ingest entity (`items`, `asn`, …), as the registry above holds them. */
export type IngestEntity = IngestEntityOf<ReturnType<typeof createIngestRegistry>>;
