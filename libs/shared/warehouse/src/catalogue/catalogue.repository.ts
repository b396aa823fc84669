import { QueryTypes } from 'sequelize';
import { keysetListSql, routedRead, type CursorPosition, type Database } from '@wms/platform';
import { isoSql } from '../inventory/index.js';
import type {
  ItemListQuery,
  ItemView,
  LocationListQuery,
  LocationView,
  PartnerListQuery,
  PartnerView,
} from './catalogue.schemas.js';

type Listed<T> = T & { cursor: CursorPosition };

const times = (alias: string) =>
  `${isoSql(`${alias}.created_at`)} AS "createdAt", ${isoSql(`${alias}.updated_at`)} AS "updatedAt"`;

const ITEM_FIELDS = `i.id, i.sku, i.name, i.barcode, i.base_uom_code AS "baseUomCode", i.category, i.tracking,
  i.shelf_life_days AS "shelfLifeDays", i.weight_kg::float8 AS "weightKg", ${times('i')}`;

const PARTNER_FIELDS = `p.id, p.code, p.name, p.type, p.contact, ${times('p')}`;

const LOCATION_FIELDS = `l.id, w.code AS "warehouseCode", l.code, l.zone, l.type, l.pick_face AS "pickFace", ${times('l')}`;

/**
 * The catalogue reads: items, partners and locations as their upserts wrote them, one statement per page, on
 * a read replica when routed. Each page is a keyset over (updated_at, id) within the tenant; a list of
 * natural keys reads the tenant's unique key index.
 */
export class CatalogueRepository {
  constructor(private readonly db: Database) {}

  async items(tenantId: string, query: ItemListQuery): Promise<Listed<ItemView>[]> {
    const list = keysetListSql('i', tenantId, query, [
      { value: query.sku, type: 'text[]', test: (b) => `i.sku = ANY(${b})` },
    ]);
    return this.select(`SELECT ${ITEM_FIELDS}, ${list.cursor} FROM items i ${list.page}`, list.bind);
  }

  async item(tenantId: string, sku: string): Promise<ItemView | undefined> {
    const [row] = await this.select<ItemView>(
      `SELECT ${ITEM_FIELDS} FROM items i WHERE i.tenant_id = $1 AND i.sku = $2`,
      [tenantId, sku],
    );
    return row;
  }

  async partners(tenantId: string, query: PartnerListQuery): Promise<Listed<PartnerView>[]> {
    const list = keysetListSql('p', tenantId, query, [
      { value: query.code, type: 'text[]', test: (b) => `p.code = ANY(${b})` },
      { value: query.type, type: 'text', test: (b) => `p.type = ${b}` },
    ]);
    return this.select(`SELECT ${PARTNER_FIELDS}, ${list.cursor} FROM partners p ${list.page}`, list.bind);
  }

  /** `warehouseId`: the warehouse of `query.warehouseCode`, resolved first so the page reads its index. */
  async locations(
    tenantId: string,
    query: LocationListQuery,
    warehouseId: string | undefined,
  ): Promise<Listed<LocationView>[]> {
    const list = keysetListSql('l', tenantId, query, [
      { value: warehouseId, type: 'uuid', test: (b) => `l.warehouse_id = ${b}` },
      { value: query.code, type: 'text[]', test: (b) => `l.code = ANY(${b})` },
    ]);
    return this.select(
      `SELECT ${LOCATION_FIELDS}, ${list.cursor} FROM locations l JOIN warehouses w ON w.id = l.warehouse_id ${list.page}`,
      list.bind,
    );
  }

  async warehouseId(tenantId: string, code: string): Promise<string | undefined> {
    const [row] = await this.select<{ id: string }>('SELECT id FROM warehouses WHERE tenant_id = $1 AND code = $2', [
      tenantId,
      code,
    ]);
    return row?.id;
  }

  private select<T extends object>(sql: string, bind: unknown[]): Promise<T[]> {
    return routedRead(this.db, (from) => from.sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT }));
  }
}
