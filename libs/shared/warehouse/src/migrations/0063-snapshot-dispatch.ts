import type { Migration } from '@wms/platform';

/**
 * When a stock snapshot's job was last handed to BullMQ (or looked up there): the ingest worker's dispatcher
 * adds the job of a snapshot the gateway could not queue, and again that of one Redis lost, as it does for
 * bulk jobs. Snapshots asked for before this have no time and are looked up once.
 */
export const snapshotDispatch: Migration = {
  name: '0063-snapshot-dispatch',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE stock_snapshots ADD COLUMN dispatched_at timestamptz;
      CREATE INDEX stock_snapshots_unfinished_idx ON stock_snapshots (dispatched_at NULLS FIRST)
        WHERE state IN ('queued', 'running');
    `);
  },
};
