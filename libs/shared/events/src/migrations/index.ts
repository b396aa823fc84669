import type { Migration } from '@wms/platform';
import { eventsOutbox } from './0004-events-outbox.js';
import { eventSequences } from './0046-event-sequences.js';
import { eventTraceContext } from './0057-event-trace-context.js';

/**
 * The events library's migrations, by name. Setup lists every library's in the one order they are applied
 * (libs/shared/setup/src/bootstrap/migrations.ts); a shipped migration keeps its name and place there.
 */
export const eventsMigrations = {
  eventsOutbox,
  eventSequences,
  eventTraceContext,
} satisfies Record<string, Migration>;
