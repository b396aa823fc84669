import type { Migration } from '@wms/platform';

/**
 * The inbound engine's queue (ADR 0207, "The engine"): an inbound interchange waits for the ingest
 * worker's `edi` queue at its tenant's turn (`turn`, as bulk jobs and import chunks do, ADR 0190), and the
 * dispatcher records when it handed it to BullMQ (`dispatched_at`), so one Redis lost is handed again.
 */
export const ediInbound: Migration = {
  name: '0098-edi-inbound',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE edi_interchanges
        ADD COLUMN IF NOT EXISTS turn integer,
        ADD COLUMN IF NOT EXISTS dispatched_at timestamptz`);
    await sequelize.query(`
      CREATE INDEX IF NOT EXISTS edi_interchanges_inbound_turns ON edi_interchanges (tenant_id, turn)
        WHERE direction = 'in' AND state IN ('received', 'processing')`);
  },
};
