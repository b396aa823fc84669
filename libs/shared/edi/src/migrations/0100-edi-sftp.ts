import type { Migration } from '@wms/platform';

/**
 * The SFTP endpoint's host keys outside production (ADR 0207, "The SFTP endpoint"): without EDI_SFTP_HOST_KEYS a
 * development or test deployment generates one key the first time the endpoint starts and keeps it here, so
 * every replica and every restart shows partners the same host key (a changed one is what a client warns of).
 * Production sets EDI_SFTP_HOST_KEYS and never reads this table.
 */
export const ediSftp: Migration = {
  name: '0100-edi-sftp',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE IF NOT EXISTS edi_sftp_host_keys (
        name text PRIMARY KEY,
        private_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  },
};
