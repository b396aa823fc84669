import type { Migration } from '@wms/platform';

/**
 * The indexes of the catalogue reads (GET /items, /partners, /locations): each list's keyset over
 * (updated_at, id) within the tenant, a warehouse's locations, partners of one type, and location codes
 * asked without their warehouse. A list of skus or partner codes reads the tenant's unique key.
 */
export const catalogueReads: Migration = {
  name: '0070-catalogue-reads',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE INDEX items_updated_idx ON items (tenant_id, updated_at, id);
      CREATE INDEX partners_updated_idx ON partners (tenant_id, updated_at, id);
      CREATE INDEX partners_type_updated_idx ON partners (tenant_id, type, updated_at, id);
      CREATE INDEX locations_updated_idx ON locations (tenant_id, updated_at, id);
      CREATE INDEX locations_warehouse_updated_idx ON locations (warehouse_id, updated_at, id);
      CREATE INDEX locations_code_idx ON locations (tenant_id, code);
    `);
  },
};
