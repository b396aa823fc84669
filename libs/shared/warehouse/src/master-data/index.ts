export { MasterDataService } from './master-data.service.js';
export { MasterDataRepository, type UpsertedRow } from './master-data.repository.js';
export {
  itemSchema,
  itemRefSchema,
  partnerRefSchema,
  locationRefSchema,
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
