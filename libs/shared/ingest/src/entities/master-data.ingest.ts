import { stringField, type IngestEntityDeclaration, type IngestHandler } from '../integration/index.js';
import type { MasterDataService, StatementContext } from '@wms/warehouse';
import {
  itemRefSchema,
  itemSchema,
  locationRefSchema,
  locationSchema,
  partnerRefSchema,
  partnerSchema,
  type ItemInput,
  type LocationInput,
  type PartnerInput,
} from '@wms/warehouse';

/** Bulk items, partners and locations take at most 500 entries per request. */
export const MASTER_DATA_BULK_LIMIT = 500;

/** The natural key of a location as bulk results report it. */
export function locationKey(entry: unknown): string {
  return `${stringField(entry, 'warehouseCode')}/${stringField(entry, 'code')}`;
}

const MASTER_DATA = {
  maxEntries: MASTER_DATA_BULK_LIMIT,
  batchSize: MASTER_DATA_BULK_LIMIT,
  singleStatus: 200,
  mergeDuplicates: true,
  singleStatement: true,
} as const;

/** Items, partners and locations as entities of the integration API (single and bulk upserts). */
export const ITEM_ENTITY = {
  ...MASTER_DATA,
  entity: 'items',
  title: 'Item',
  entrySchema: itemSchema,
  refSchema: itemRefSchema,
  keyOf: (entry) => stringField(entry, 'sku'),
} satisfies IngestEntityDeclaration<ItemInput, 'items'>;

export const PARTNER_ENTITY = {
  ...MASTER_DATA,
  entity: 'partners',
  title: 'Partner',
  entrySchema: partnerSchema,
  refSchema: partnerRefSchema,
  keyOf: (entry) => stringField(entry, 'code'),
} satisfies IngestEntityDeclaration<PartnerInput, 'partners'>;

export const LOCATION_ENTITY = {
  ...MASTER_DATA,
  entity: 'locations',
  title: 'Location',
  entrySchema: locationSchema,
  refSchema: locationRefSchema,
  keyOf: locationKey,
} satisfies IngestEntityDeclaration<LocationInput, 'locations'>;

/** The master-data entities with their upserts, each one statement. */
export function masterDataIngestHandlers(
  service: MasterDataService,
): [
  IngestHandler<ItemInput, 'items'>,
  IngestHandler<PartnerInput, 'partners'>,
  IngestHandler<LocationInput, 'locations'>,
] {
  return [
    {
      ...ITEM_ENTITY,
      writeBatch: (context: StatementContext, entries: ItemInput[]) => service.upsertItems(context, entries),
    },
    {
      ...PARTNER_ENTITY,
      writeBatch: (context: StatementContext, entries: PartnerInput[]) => service.upsertPartners(context, entries),
    },
    {
      ...LOCATION_ENTITY,
      writeBatch: (context: StatementContext, entries: LocationInput[]) => service.upsertLocations(context, entries),
    },
  ];
}
