import type { Migration } from '@wms/platform';

/**
 * A key's calls by outcome in its hourly rollups: besides the answered requests (which are also request-log
 * rows), the calls its rate limit refused (429) and those its IP whitelist or allowed origins refused (403).
 * Those two are counted only here, so a flood of them costs no row each.
 */
export const keyOutcomes: Migration = {
  name: '0051-key-outcomes',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE api_key_request_rollups
        ADD COLUMN IF NOT EXISTS rate_limited integer NOT NULL DEFAULT 0,
        ADD COLUMN IF NOT EXISTS refused integer NOT NULL DEFAULT 0;
    `);
  },
};
