import type { Migration } from '@wms/platform';

/**
 * Import chunks take tenant turns as bulk jobs do: a chunk queued for a worker holds its tenant's turn
 * (`turn`, ordering its job in the imports queue) and the time it was handed to BullMQ (`dispatched_at`, so
 * the dispatcher adds a chunk Redis lost). A tenant has at most IMPORT_TENANT_CONCURRENCY chunks queued;
 * the partial index holds only those, for the lane's head and each tenant's last turn.
 */
export const importChunkTurns: Migration = {
  name: '0055-import-chunk-turns',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE import_chunks
        ADD COLUMN IF NOT EXISTS turn integer,
        ADD COLUMN IF NOT EXISTS dispatched_at timestamptz;
      CREATE INDEX IF NOT EXISTS import_chunks_queued_idx ON import_chunks (turn) WHERE turn IS NOT NULL AND NOT done;
    `);
  },
};
