import type { Migration } from '@wms/platform';

/**
 * The indexes of the catalogue reads (GET /items, /partners, /locations), each ending in the lists' keyset
 * order (updated_at, id): each list within the tenant, partners of one type, a warehouse's locations, and
 * location codes asked without their warehouse. A list of skus or partner codes reads the tenant's unique
 * key. Built CONCURRENTLY, one statement each: upserts go on while they build.
 */
const INDEXES = [
  'items_updated_idx ON items (tenant_id, updated_at, id)',
  'partners_updated_idx ON partners (tenant_id, updated_at, id)',
  'partners_type_updated_idx ON partners (tenant_id, type, updated_at, id)',
  'locations_updated_idx ON locations (tenant_id, updated_at, id)',
  'locations_warehouse_updated_idx ON locations (tenant_id, warehouse_id, updated_at, id)',
  'locations_code_idx ON locations (tenant_id, code)',
];

/** The index this replaces: the same leading column without the list's order. */
const REPLACED = ['locations_tenant_idx'];

export const catalogueReads: Migration = {
  name: '0070-catalogue-reads',
  async up({ sequelize }) {
    for (const index of INDEXES) await sequelize.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${index}`);
    for (const index of REPLACED) await sequelize.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
  },
};
