import type { Migration } from '@wms/platform';

/**
 * Each key's pinned dated API version, and its calls per version in the hourly rollups. Keys made before
 * versions existed keep today's shapes (`2026-11-21`); a key created now is given the newest by the service.
 * The per-version counts are one jsonb object per key and hour (`{"2026-12-01": 12}`), so a new version
 * needs no column.
 */
export const keyApiVersions: Migration = {
  name: '0060-key-api-versions',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS api_version text NOT NULL DEFAULT '2026-11-21';
      ALTER TABLE api_key_request_rollups ADD COLUMN IF NOT EXISTS versions jsonb NOT NULL DEFAULT '{}'::jsonb;
    `);
  },
};
