export { CatalogueService } from './catalogue.service.js';
export {
  CATALOGUE_KEYS_MAX,
  itemListQuerySchema,
  partnerListQuerySchema,
  locationListQuerySchema,
  itemViewSchema,
  partnerViewSchema,
  locationViewSchema,
  type ItemListQuery,
  type PartnerListQuery,
  type LocationListQuery,
  type ItemView,
  type PartnerView,
  type LocationView,
} from './catalogue.schemas.js';
