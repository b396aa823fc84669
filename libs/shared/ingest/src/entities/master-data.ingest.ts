import { stringField, type IngestHandler } from '../integration/index.js';
import type { MasterDataService } from '@wms/warehouse';
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

/** Items, partners and locations as entities of the integration API (single and bulk upserts). */
export function masterDataIngestHandlers(
  service: MasterDataService,
): [
  IngestHandler<ItemInput, 'items'>,
  IngestHandler<PartnerInput, 'partners'>,
  IngestHandler<LocationInput, 'locations'>,
] {
  const common = {
    maxEntries: MASTER_DATA_BULK_LIMIT,
    batchSize: MASTER_DATA_BULK_LIMIT,
    singleStatus: 200 as const,
    mergeDuplicates: true,
  };
  const items: IngestHandler<ItemInput, 'items'> = {
    ...common,
    entity: 'items',
    title: 'Item',
    entrySchema: itemSchema,
    refSchema: itemRefSchema,
    keyOf: (entry) => stringField(entry, 'sku'),
    singleStatement: true,
    writeBatch: (context, entries) => service.upsertItems(context, entries),
  };
  const partners: IngestHandler<PartnerInput, 'partners'> = {
    ...common,
    entity: 'partners',
    title: 'Partner',
    entrySchema: partnerSchema,
    refSchema: partnerRefSchema,
    keyOf: (entry) => stringField(entry, 'code'),
    singleStatement: true,
    writeBatch: (context, entries) => service.upsertPartners(context, entries),
  };
  const locations: IngestHandler<LocationInput, 'locations'> = {
    ...common,
    entity: 'locations',
    title: 'Location',
    entrySchema: locationSchema,
    refSchema: locationRefSchema,
    keyOf: locationKey,
    singleStatement: true,
    writeBatch: (context, entries) => service.upsertLocations(context, entries),
  };
  return [items, partners, locations];
}
