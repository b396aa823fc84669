import { AppError, toPage, type Database, type ListPage } from '@wms/platform';
import { CatalogueRepository } from './catalogue.repository.js';
import type {
  ItemListQuery,
  ItemView,
  LocationListQuery,
  LocationView,
  PartnerListQuery,
  PartnerView,
} from './catalogue.schemas.js';

/**
 * Reading back the master data an integration pushed: pages of items, partners and locations changed since
 * a time (oldest change first, continued by cursor), narrowed to natural keys, and one item by sku.
 */
export class CatalogueService {
  private readonly repository: CatalogueRepository;

  constructor(db: Database) {
    this.repository = new CatalogueRepository(db);
  }

  async items(tenantId: string, query: ItemListQuery): Promise<ListPage<ItemView>> {
    return toPage(await this.repository.items(tenantId, query), query.limit);
  }

  /** One item; another tenant's is not found, as an unknown sku is. */
  async item(tenantId: string, sku: string): Promise<ItemView> {
    const item = await this.repository.item(tenantId, sku);
    if (!item) throw AppError.notFound(`Item SKU ${sku} not found`);
    return item;
  }

  async partners(tenantId: string, query: PartnerListQuery): Promise<ListPage<PartnerView>> {
    return toPage(await this.repository.partners(tenantId, query), query.limit);
  }

  /** A warehouse code the tenant does not have is a bad reference (400), not an empty page. */
  async locations(tenantId: string, query: LocationListQuery): Promise<ListPage<LocationView>> {
    const { warehouseCode } = query;
    const warehouseId =
      warehouseCode === undefined ? undefined : await this.repository.warehouseId(tenantId, warehouseCode);
    if (warehouseCode !== undefined && !warehouseId)
      throw AppError.referenceNotFound(`Warehouse code ${warehouseCode} not found`);
    return toPage(await this.repository.locations(tenantId, query, warehouseId), query.limit);
  }
}
