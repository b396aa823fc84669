import type { Migration } from '@wms/platform';

/**
 * The API-key request log, written for every request a key makes, no longer checks each record's key
 * against `api_keys`: a record is only ever written for a key the guard has just verified, keys are revoked
 * and never deleted, and the retention purge removes old records. The per-row foreign-key check cost
 * PostgreSQL about as much as parsing and inserting the row (measured on batches of 500), on every
 * integration request.
 */
export const requestLogWithoutKeyCheck: Migration = {
  name: '0022-request-log-without-key-check',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE api_key_request_logs DROP CONSTRAINT IF EXISTS api_key_request_logs_api_key_id_fkey;
    `);
  },
};
