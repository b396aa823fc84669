import type { AsnService, MasterDataService, OrdersService, ReturnsService } from '@wms/warehouse';
import { IngestRegistry, type IngestEntityDeclaration, type IngestEntityOf } from '../integration/index.js';
import { ITEM_ENTITY, LOCATION_ENTITY, PARTNER_ENTITY, masterDataIngestHandlers } from './master-data.ingest.js';
import { ASN_ENTITY, asnIngestHandler } from './asn.ingest.js';
import { ORDER_ENTITY, orderIngestHandler } from './orders.ingest.js';
import { RETURN_ENTITY, returnIngestHandler } from './returns.ingest.js';

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

/**
 * The same entities as declarations, in the registry's order, without their services: what the integration
 * API's routes and document are made from where nothing is written (the typed client's generator).
 */
export const INGEST_ENTITIES: ReadonlyArray<IngestEntityDeclaration<unknown, IngestEntity>> = [
  ITEM_ENTITY,
  PARTNER_ENTITY,
  LOCATION_ENTITY,
  ASN_ENTITY,
  ORDER_ENTITY,
  RETURN_ENTITY,
];
