import type { Migration } from '@wms/platform';

/**
 * An event keeps the W3C trace context (`traceparent`, `tracestate`) of the work that committed it, so the
 * webhook attempts it leads to are spans of that work's trace. A nullable column without a default: a
 * catalogue change, no rewrite; events written before it, or with tracing off, have none.
 */
export const eventTraceContext: Migration = {
  name: '0057-event-trace-context',
  async up({ sequelize }) {
    await sequelize.query('ALTER TABLE events ADD COLUMN IF NOT EXISTS trace_context jsonb');
  },
};
