export { MasterDataService } from './master-data.service.js';
export { MasterDataRepository, type UpsertedRow } from './master-data.repository.js';
export { masterDataIngestHandlers, locationKey, MASTER_DATA_BULK_LIMIT } from './master-data.ingest.js';
export {
  itemSchema,
  partnerSchema,
  locationSchema,
  ITEM_TRACKING,
  PARTNER_TYPES,
  LOCATION_TYPES,
  type ItemInput,
  type PartnerInput,
  type LocationInput,
} from './master-data.schemas.js';
export { References, type WarehouseRef, type PartnerRef, type ItemRef } from './references.js';
export { ReferenceRepository } from './reference.repository.js';
