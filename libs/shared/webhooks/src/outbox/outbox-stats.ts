import type { Database } from '@wms/platform';
import type { OutboxStats } from './outbox-gauges.js';
import { OutboxRepository } from './outbox.repository.js';

/** The outbox's state for the metrics (see OutboxRepository.stats); an age is never negative. */
export async function readOutboxStats(db: Database): Promise<OutboxStats> {
  const row = await new OutboxRepository(db).stats();
  return { ...row, oldestEventAgeSeconds: Math.max(0, row.oldestEventAgeSeconds) };
}
