import type { Migration } from '@wms/platform';

/**
 * An import keeps the W3C trace context of the upload that created it, so the chunks written later, turn by
 * turn, are spans of the upload's trace. Nullable, no default: a catalogue change only.
 */
export const importTraceContext: Migration = {
  name: '0058-import-trace-context',
  async up({ sequelize }) {
    await sequelize.query('ALTER TABLE imports ADD COLUMN IF NOT EXISTS trace_context jsonb');
  },
};
